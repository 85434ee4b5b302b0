//go:build unix

package hostile

// fifoIn is a Setup that lays out files, makes a FIFO at name (no writer
// ever opens it) and runs webcap with args.
func fifoIn(name string, files map[string]string, args ...string) func(dir string) ([]string, func(), error) {
	setup := confine(files)
	return func(dir string) ([]string, func(), error) {
		if err := layout(dir, files); err != nil {
			return nil, nil, err
		}
		if err := fifo(dir, name); err != nil {
			return nil, nil, err
		}
		_, _, err := setup(dir) // the listing, the FIFO in it
		return args, nil, err
	}
}

func init() {
	Register(
		Case{
			Name: "id-aux-fifo", Part: Confine,
			Setup: fifoIn("mirror/www.example.com/logo.gif", map[string]string{
				"mirror/www.example.com/page.html": `<img src="logo.gif">`,
			}, "id", "--kind", "page", "--aux", "mirror", "mirror/www.example.com/page.html"),
			Exit:   1,
			Stderr: []string{`^webcap: id: mirror/www.example.com/page.html: identifier incomplete: 1 of 1 auxiliary file not read: http://www.example.com/logo.gif \(not found in mirror: open mirror/www.example.com/logo.gif: is a FIFO, not a regular file\)$`},
			Check:  nothingWritten(),
			Before: "hung in open(2) on the FIFO (killed after 10 s), 1.6 MB",
		},
		Case{
			Name: "build-source-fifo", Part: Confine,
			Setup: fifoIn("m/notes.txt", map[string]string{
				"m/manifest.json": manifestJSON(map[string]any{"source": "notes.txt"}),
				"m/web.pdf":       string(webPDF()),
			}, "build", "m/manifest.json", "-o", "out.pdf"),
			Exit:   3,
			Stderr: []string{`^webcap: build: m/notes\.txt: is a FIFO, not a regular file$`},
			Check:  nothingWritten(),
			Before: "hung in open(2) on the FIFO (killed after 10 s), 1.7 MB",
		},
	)
}
