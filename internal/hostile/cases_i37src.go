package hostile

import (
	"strings"
)

// Issue 30, build's sources (round 5): a page set's source from a mirror
// is read (mirror.Dir.ReadFast) into one buffer that the next set's
// source reuses, as nothing keeps a source's bytes past its identifier.
// The edges: a large page then a small one (the small one's identifier
// must be of its own bytes, not of what the large one left in the
// buffer), a small one then a larger one (a new buffer), a page larger
// than the buffer kept between sets (1 MiB), and a page the fast path
// leaves to Open (a link inside the mirror, which Open follows): each
// output byte for byte the session-start binary's.

// reusedMirror are mirrorFiles with index.html (pages 1-2) and notes.txt
// (page 3, read after it) as given.
func reusedMirror(index, notes string) map[string]string {
	f := mirrorFiles(index)
	f["m/site/www.example.com/notes.txt"] = notes
	return f
}

func init() {
	build := []string{"build", "m/manifest.json", "-o", "out.pdf"}
	Register(
		Case{
			Name: "build-mirror-large-then-small-source", Part: Inputs,
			Setup:  confine(reusedMirror("<p>"+strings.Repeat("large page ", 400)+"</p>", "Notes.\n"), build...),
			Exit:   0,
			Check:  sameMD5("out.pdf", "0d6fc12d19bc6086795757753b86c177"),
			Before: "exit 0, 0.02 s CPU, 23 MB: out.pdf of 3,402 bytes, MD5 0d6fc12d…",
		},
		Case{
			Name: "build-mirror-small-then-large-source", Part: Inputs,
			Setup:  confine(reusedMirror("<p>small</p>", strings.Repeat("Notes, longer than the page. ", 200)), build...),
			Exit:   0,
			Check:  sameMD5("out.pdf", "c7a1769a43910cf57fa8c2824e8f2ce7"),
			Before: "exit 0, 0.02 s CPU, 24 MB: out.pdf of 3,402 bytes, MD5 c7a1769a…",
		},
		Case{
			Name: "build-mirror-source-over-kept-buffer", Part: Bounds,
			Setup: func(dir string) ([]string, func(), error) { // (1 MiB: made when the case runs)
				return confine(reusedMirror("<p>"+strings.Repeat("x", 1<<20)+"</p>", "Notes.\n"), build...)(dir)
			},
			Exit:   0,
			Check:  sameMD5("out.pdf", "60f504dee426aace3ecb82b9c455f90d"),
			Before: "exit 0, 0.03 s CPU, 25 MB: out.pdf of 3,402 bytes, MD5 60f504de…",
		},
		Case{
			Name: "build-mirror-source-link-inside", Part: Confine,
			Setup: func(dir string) ([]string, func(), error) {
				f := reusedMirror("<p>large page, then a link</p>", "-> real-notes.txt")
				f["m/site/www.example.com/real-notes.txt"] = "Notes through a link.\n"
				return confine(f, build...)(dir)
			},
			Exit:   0,
			Check:  sameMD5("out.pdf", "79c807e7662cb9e99ba45ad096a30e97"),
			Before: "exit 0, 0.02 s CPU, 23 MB: out.pdf of 3,402 bytes, MD5 79c807e7… (the link followed inside the mirror by OpenIn)",
		},
	)
}
