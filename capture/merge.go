package capture

import (
	"time"

	"github.com/webcap/webcap/pdfio"
)

// A merger copies each captured page's printed pages into the update as
// the crawl takes the page, not once it is over: a capture that stops
// (an interrupt, a limit) has less left to do before its file is
// written, and the copying overlaps the rendering of the pages after.
type merger struct {
	u       *pdfio.Update // nil until the first page (a new file)
	name    string        // the input's name
	opts    Options
	page    int // the next page's number
	printed []printedPage
	sets    []filed
	notes   []string
	took    time.Duration
	err     error // the first failure: the pages after are not copied
}

// add copies pg's printed pages, with their tags, under its set's
// Article, and notes where they went.
func (m *merger) add(pg *Page) {
	if m.err != nil {
		return
	}
	t0 := time.Now()
	defer func() { m.took += time.Since(t0) }()
	if m.u == nil {
		if m.u, m.err = pdfio.NewFileUpdate(pg.PDF, m.name, pdfio.Options{}); m.err != nil {
			return
		}
	}
	refs, pr, err := m.u.AppendPages(pg.PDF, "the browser's PDF of "+pg.URL)
	if err != nil {
		m.err = err
		return
	}
	m.printed = append(m.printed, printedPage{m.page, pr.Pages, pr.Dests})
	m.page += pr.Pages
	m.sets = append(m.sets, filed{url: recordedURL(pg.URL, m.opts), title: pg.Title, page: refs[0], article: pr.Article})
	if pr.Untagged != "" {
		m.notes = append(m.notes, pg.URL+": "+pr.Untagged)
	}
}
