package webcapture_test

import (
	"fmt"

	"github.com/webcap/webcap/webcapture"
)

func ExampleParseDate() {
	for _, raw := range []string{"D:20150402085105Z", "D:20040512103000", "D:20150230"} {
		d, err := webcapture.ParseDate(raw)
		fmt.Println(d, err != nil)
	}
	// Output:
	// 2015-04-02T08:51:05Z false
	// 2004-05-12T10:30:00 (no zone) false
	// "D:20150230" true
}

func ExampleRawID() {
	id := webcapture.RawID("\x83\xed\xd6\xaa\xb5\x30\xb6\x44\xb8\x54\x0f\x60\x9e\x46\x8f\x78")
	full, ok := id.ID()
	fmt.Println(id.Hex(), ok, full.String() == id.Hex())
	// Output: 83EDD6AAB530B644B8540F609E468F78 true true
}
