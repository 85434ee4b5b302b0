package canon_test

import (
	"errors"
	"fmt"

	"github.com/webcap/webcap/canon"
)

func ExampleCanonical() {
	key, err := canon.Canonical("HTTP://Example.COM:80/a/./b/../c#top")
	fmt.Println(key, err)
	// Output: http://example.com/a/c <nil>
}

func ExampleNew() {
	c, err := canon.New(canon.PDF, canon.WithBase("http://a/b/c/d;p?q"))
	if err != nil {
		panic(err)
	}
	for _, ref := range []string{"g", "../../../g", ";x", "?y"} {
		key, _ := c.String(ref)
		fmt.Println(key)
	}
	// Output:
	// http://a/b/c/g
	// http://a/../g
	// http://a/b/c/;x
	// http://a/b/c/d;p?y
}

// The profiles differ on ".." above the root and on escapes.
func ExampleProfile() {
	for _, p := range canon.Profiles() {
		key, _ := p.Canonical("http://a/b/../../%7euser/%2e%2e/x")
		fmt.Printf("%-7s %s\n", p, key)
	}
	// Output:
	// pdf     http://a/../%7euser/%2e%2e/x
	// pdf2    http://a/%7euser/%2e%2e/x
	// rfc3986 http://a/x
}

// The input's encoding state decides what a '%' means.
func ExampleWithInput() {
	encoded, _ := canon.New(canon.PDF)
	raw, _ := canon.New(canon.PDF, canon.WithInput(canon.Raw))
	for _, c := range []*canon.Canonicalizer{encoded, raw} {
		key, _ := c.String("http://a/100%25 sure ü")
		fmt.Printf("%-7s %s\n", c.Input(), key)
	}
	// Output:
	// encoded http://a/100%25%20sure%20%C3%BC
	// raw     http://a/100%2525%20sure%20%C3%BC
}

func ExampleCanonicalizer_Append() {
	c, _ := canon.New(canon.PDF)
	buf := make([]byte, 0, 256)
	for _, u := range []string{"HTTP://A/x", "ftp://B:21/y"} {
		buf, _ = c.Append(buf[:0], u) // no allocation: buf has room
		fmt.Println(string(buf))
	}
	// Output:
	// http://a/x
	// ftp://b/y
}

func ExampleCanonicalizer_Explain() {
	c, _ := canon.New(canon.PDF)
	ex, _ := c.Explain("HTTP://Www.Example.com:080/a/./b/../ü#frag")
	for _, s := range ex.Steps {
		if s.Changed() {
			fmt.Printf("%s %-18s %s\n", s.Step.Number(), s.Step.Name(), s.After)
		}
	}
	// Output:
	// 2 strip fragment     HTTP://Www.Example.com:080/a/./b/../ü
	// 3 lower-case scheme  http://Www.Example.com:080/a/./b/../ü
	// 4 lower-case host    http://www.example.com:080/a/./b/../ü
	// 6 default port       http://www.example.com/a/./b/../ü
	// E one encoding pass  http://www.example.com/a/./b/../%C3%BC
	// 7 dot segments       http://www.example.com/a/%C3%BC
}

func ExampleError() {
	_, err := canon.Canonical("http://example.com:99999/")
	var e *canon.Error
	if errors.As(err, &e) {
		fmt.Println(e.Step.Number(), e.Offset, errors.Is(err, canon.ErrBadPort))
		fmt.Println(err)
	}
	// Output:
	// 6 19 true
	// canon "http://example.com:99999/": step 6 (default port) at byte 19: port "99999" is above 65535
}
