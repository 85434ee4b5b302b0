package webcapture_test

import (
	"crypto/md5"
	"fmt"

	"github.com/webcap/webcap/webcapture"
)

// Compute the identifiers of a captured page and of its image. The page's
// rule is decided from its bytes (HTML: a page set's rule): MD5 over the
// page, then over the identifier of each auxiliary file it references; the
// image's is MD5 over its bytes.
func ExampleSourceID() {
	page := []byte(`<html><body><img src="logo.gif"><p>Home</p></body></html>`)
	logo := []byte("GIF89a the logo")
	files := webcapture.MapSource{"http://www.example.com/logo.gif": logo}

	src, err := webcapture.SourceID(page, webcapture.SourceOptions{URL: "http://www.example.com/", Aux: files})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(src.Kind, src.MediaType, src.ID, src.Complete())
	for _, a := range src.Page.Aux {
		fmt.Println("  auxiliary", a.URL, a.ID)
	}
	img, _ := webcapture.SourceID(logo, webcapture.SourceOptions{})
	fmt.Println(img.Kind, img.MediaType, img.ID)

	// The same, by hand: the raw 16 bytes of each auxiliary identifier.
	logoID := md5.Sum(logo)
	fmt.Println(webcapture.ID(md5.Sum(append(page, logoID[:]...))) == src.ID)
	// Output:
	// page text/html 8D242EB574D622BC1C8843194D076245 true
	//   auxiliary http://www.example.com/logo.gif 161C6D8EA79A0EF68408C03DF30D3942
	// image image/gif 161C6D8EA79A0EF68408C03DF30D3942
	// true
}
