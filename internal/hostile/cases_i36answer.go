package hostile

import (
	"bytes"
	"compress/zlib"
	"fmt"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// Issue 30, "reading any file takes at most 3× its size plus what the
// answer holds": a command's posted data, the one value of info --json's
// answer that can be as large as the streams a file may decode to, is
// written from its decoded bytes to the output a chunk at a time
// (internal/cli's writeLargeBytes), not made a string, then JSON, then a
// compacted copy in encoding/json's buffer. shared-command-params-info-json
// (cases_bounds.go) is posted text; here the posted bytes are not UTF-8,
// so the answer holds them as {"hex"}: twice their size.

// postedLatin1 is a Setup writing a capture whose two commands post one
// /P stream of 30 MiB of 0xE9 (é in Latin-1), and reading it with info
// --json.
func postedLatin1(dir string) ([]string, func(), error) {
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write(bytes.Repeat([]byte{0xE9}, 30<<20))
	w.Close()
	b := pdfbuild.New()
	pagesRoot, _ := b.PageTree(1, nil)
	p := b.Add(&pdfbuild.Stream{Dict: pdfbuild.D("Filter", pdfbuild.Name("FlateDecode")), Data: z.Bytes()})
	cmds := pdfbuild.Array{}
	for i := range 2 {
		cmds = append(cmds, b.Add(pdfbuild.D("URL", pdfbuild.Lit(fmt.Sprintf("http://www.example.com/form%d", i)), "P", p)))
	}
	b.Root = b.Add(pdfbuild.D("Type", pdfbuild.Name("Catalog"), "Pages", pagesRoot, "SpiderInfo", pdfbuild.D("V", 1.25, "C", cmds)))
	return []string{"info", "--json", "latin.pdf"}, nil, Write(dir, "latin.pdf", b.Bytes())
}

func init() {
	Register(Case{
		Name:      "posted-latin1-info-json",
		Part:      Bounds,
		Setup:     postedLatin1,
		Exit:      0,
		Stdout:    []string{`"method":"POST","postData":\{"hex":"E9E9E9`, `E9E9"\}\},\{"object":"\d+ 0 R","url":"http://www\.example\.com/form1",.*"postDataOf":0\}`},
		MaxOutput: 70 << 20, // 30 MiB posted, in hex, once
		MaxRSS:    150 << 20,
		Before:    "exit 0, the same 62,915,201 bytes, in 304-366 MB and 0.86-1.09 s user+sys (/work/webcap-old info --json latin.pdf, 3 runs: the hex made whole, then compacted and copied by encoding/json); now 88-89 MB, 0.18-0.23 s",
	})
}
