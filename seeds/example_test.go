package seeds_test

import (
	"fmt"
	"strings"

	"github.com/webcap/webcap/seeds"
	"github.com/webcap/webcap/shard"
)

func Example() {
	list := `# the watch list
https://example.com/
https://example.org/docs/ --levels 2 --same-path
`
	all, err := seeds.Read(strings.NewReader(list), "watch.txt", seeds.ReadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range all {
		fmt.Printf("line %d: %s -> %s.pdf, shard %d of 4\n", s.Line, s, seeds.Name(s.URL), shard.Of(s.URL, 4))
	}
	_, err = seeds.Read(strings.NewReader("https://example.com/ --levels zero\n"), "bad.txt", seeds.ReadOptions{})
	fmt.Println(err)
	// A Capturer (with a browser) captures each seed; seeds.Run hands
	// them out:
	//
	//	c := &seeds.Capturer{Config: seeds.Config{Dir: "out", Resume: true}, Browser: start}
	//	defer c.Close()
	//	seeds.Run(ctx, all, batch.RunOptions{Jobs: 1}, c.Do, func(r seeds.Result) { fmt.Println(r.Seed, r.Status, r.PDF) })

	// Output:
	// line 2: https://example.com/ -> example.com-0f115db062b7c0dd.pdf, shard 0 of 4
	// line 3: https://example.org/docs/ --levels 2 --same-path -> example.org-docs-a82b6e50b60ab03d.pdf, shard 3 of 4
	// bad.txt:1: --levels "zero": not a whole number
}
