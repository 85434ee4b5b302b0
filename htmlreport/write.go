package htmlreport

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/audit/export"
	"github.com/webcap/webcap/pdfio"
)

// A File is one file's audit result, with its content sets when audit
// recorded them (Capture nil: it did not).
type File struct {
	Result  audit.FileResult
	Capture *Capture
}

// Results are the files a report shows, in order; At may be called more
// than once for a file (the report reads them twice: the summary first).
type Results interface {
	Len() int
	At(i int) File
}

// Streamed is what Results may also be: a file without its findings,
// with their counts, and the findings read one at a time. The report
// counts a file's findings and lists its first MaxFindings, so that from
// Streamed results it reads no more than these of a file of millions
// (audit/batch.Spool), and holds none but them.
type Streamed interface {
	// Head is the i-th file without its findings, its status, and its
	// findings counted by rule and severity (export.CountsOf).
	Head(i int) (File, audit.Status, []export.Count)
	// EachFinding calls fn with each of the i-th file's findings, in
	// At's order, until fn's first error, which it returns.
	EachFinding(i int, fn func(audit.Finding) error) error
}

// entry is a file as the report reads it: without its findings, with
// their counts, and a reading of them.
type entry struct {
	File   // Result.Findings: nil
	status audit.Status
	counts []export.Count
	each   func(fn func(audit.Finding) error) error
}

// entryAt is the i-th file.
func entryAt(results Results, i int) entry {
	if st, ok := results.(Streamed); ok {
		f, status, counts := st.Head(i)
		f.Result.Findings = nil
		return entry{f, status, counts, func(fn func(audit.Finding) error) error { return st.EachFinding(i, fn) }}
	}
	f := results.At(i)
	found, status := f.Result.Findings, f.Result.Status()
	f.Result.Findings = nil
	return entry{f, status, export.CountsOf(found), func(fn func(audit.Finding) error) error {
		for _, x := range found {
			if err := fn(x); err != nil {
				return err
			}
		}
		return nil
	}}
}

// Slice is Results held in memory.
type Slice []File

func (s Slice) Len() int      { return len(s) }
func (s Slice) At(i int) File { return s[i] }

// MaxSingle is the number of files a report holds in one HTML file; a
// report of more is a directory of pages (Write).
const MaxSingle = 1000

const (
	indexRows    = 1000 // files in each index page of a directory report
	filesPerPage = 100  // files in each page of details
	chunk        = 50   // files whose thumbnails are rendered at once
)

// Options control a report.
type Options struct {
	// Renderer draws the thumbnails; nil: none, and NoThumbnails says why
	// once in the report (ErrNoRenderer's words, or that they were turned
	// off). Its Timeout, FileTime and RunTime bound their time: a page's,
	// a file's and the report's.
	Renderer     *Renderer
	NoThumbnails string
	Jobs         int       // thumbnails rendered at once (at least 1)
	Replace      bool      // replace what is at the path
	Generator    string    // the program and version ("webcap v1.2.0")
	Time         time.Time // when the results were made; zero: not said
	// MaxSingle is the most files written as one HTML file; 0: MaxSingle.
	MaxSingle int
	// Progress, when set, is called after each file's details are
	// written, with the file's path.
	Progress func(done, total int, input string)
}

// Stats says what Write wrote.
type Stats struct {
	Dir        bool  // the report is a directory (index.html and pages)
	Pages      int   // HTML files written
	Bytes      int64 // their size
	Thumbnails int   // thumbnails drawn
	Failed     int   // thumbnails the renderer failed to draw
	// Skipped counts the page sets left without a thumbnail because the
	// time for their file's thumbnails, or the report's, was spent
	// (Renderer.FileTime, RunTime); a drawing stopped by it is Failed.
	Skipped int
}

// Write writes the report of results to path: one self-contained HTML
// file when there are at most MaxSingle files, else a directory of static
// pages at path (index.html, index-2.html, ...: a thousand files each;
// files-1.html, ...: a hundred files' details each; rules.html). Either
// is written beside path under a temporary name and renamed there when
// complete, so that a failed run leaves what was there; what is there is
// replaced only with opts.Replace (a directory only if it holds an
// index.html: a report).
func Write(ctx context.Context, path string, results Results, opts Options) (Stats, error) {
	if opts.MaxSingle <= 0 {
		opts.MaxSingle = MaxSingle
	}
	opts.Jobs = max(opts.Jobs, 1)
	w := &writer{ctx: ctx, opts: opts, results: results, tmpl: newTemplate(), sum: newSummary(), time: newTimeKeeper(opts.Renderer)}
	for i := range results.Len() {
		if i%1024 == 0 && ctx.Err() != nil {
			return w.stats, context.Cause(ctx)
		}
		w.sum.add(entryAt(results, i))
	}
	if results.Len() <= opts.MaxSingle {
		return w.stats, w.single(path)
	}
	w.stats.Dir = true
	return w.stats, w.directory(path)
}

type writer struct {
	ctx     context.Context
	opts    Options
	results Results
	tmpl    *template.Template
	sum     *summary
	time    *timeKeeper // the time the thumbnails may still take
	stats   Stats
	done    int
}

// head is what the "head" template prints.
type head struct {
	CSP, Generator, Title, Heading, Time, Counts string
	Nav                                          []link
}

func (w *writer) head(title string, nav []link) head {
	h := head{CSP: csp(), Generator: w.opts.Generator, Title: title, Heading: "Web Capture audit report", Nav: nav,
		Counts: fmt.Sprintf("%s, %s, %s.", plural(w.sum.Files, "file"), plural(w.sum.Sets, "content set"), plural(w.sum.Findings, "finding"))}
	if h.Generator == "" {
		h.Generator = "webcap"
	}
	if !w.opts.Time.IsZero() {
		h.Time = w.opts.Time.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	return h
}

type summaryView struct {
	Totals     string
	Thumbs     string
	Charts     []Chart
	RuleCounts []RuleCount
	Rules      string // the page of the rules' documentation
}

func (w *writer) summaryView(rules string) summaryView {
	s := w.sum
	v := summaryView{Charts: s.charts(), RuleCounts: s.Rules(), Rules: rules, Thumbs: w.opts.NoThumbnails}
	v.Totals = fmt.Sprintf("%s audited: %s well-formed and valid, %s well-formed but not valid, %s not well-formed, %s not checked; %s, %s, %s.",
		plural(s.Files, "file"), thousands(s.Status[audit.Valid]), thousands(s.Status[audit.NotValid]), thousands(s.Status[audit.NotWellFormed]),
		thousands(s.Status[audit.Unchecked]), plural(s.Severity[audit.Serious], "error"), plural(s.Severity[audit.Caution], "warning"), plural(s.Severity[audit.Notice], "note"))
	if s.Recorded < s.Files {
		v.Totals += fmt.Sprintf(" The content sets of %s were not recorded (results made without audit --sets, or not read).", plural(s.Files-s.Recorded, "file"))
	}
	return v
}

type indexView struct {
	Heading, Caption string
	Rows             []fileView
	Pager            *pager
}

type pager struct {
	Label string
	Links []link // Href "": the current page
}

// Bottom is the pager repeated at the end of a page, named apart (a
// landmark's name is unique on its page).
func (p *pager) Bottom() *pager {
	if p == nil {
		return nil
	}
	return &pager{Label: p.Label + " (end of the page)", Links: p.Links}
}

// single writes the one-file report.
func (w *writer) single(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return w.swap(path, func(tmp string) error { return w.singleTo(filepath.Join(tmp, "index.html")) }, true)
	}
	out, err := pdfio.CreateOutput(path, pdfio.WriteOptions{Replace: w.opts.Replace})
	if err != nil {
		return err
	}
	defer out.Close()
	if err := w.singleBody(out); err != nil {
		return err
	}
	w.stats.Pages = 1
	return out.Commit()
}

func (w *writer) singleTo(name string) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := w.singleBody(f); err != nil {
		return err
	}
	return f.Close()
}

func (w *writer) singleBody(out io.Writer) error {
	cw := &countWriter{w: out}
	b := bufio.NewWriterSize(cw, 1<<16)
	nav := []link{{"Summary", "#summary"}, {"Files", "#files-index"}, {"Details", "#files"}, {"Rules", "#rules"}}
	n := w.results.Len()
	views := make([]fileView, n)
	for i := range n {
		var err error
		if views[i], err = newFileView(i+1, entryAt(w.results, i), ""); err != nil {
			return err
		}
	}
	err := w.exec(b, "head", w.head("Web Capture audit report", nav))
	err = w.then(err, b, "summary", w.summaryView(""))
	err = w.then(err, b, "index", indexView{Heading: "Files", Caption: "Every file, in the order audited", Rows: views})
	err = w.then(err, b, "files-start", "Details")
	if err == nil {
		err = w.details(b, views)
	}
	err = w.then(err, b, "files-end", nil)
	err = w.then(err, b, "rules", ruleViews())
	err = w.then(err, b, "foot", nil)
	if err == nil {
		err = b.Flush()
	}
	w.stats.Bytes += cw.n
	return err
}

// details renders the thumbnails of views, a chunk at a time, and writes
// each file's details.
func (w *writer) details(b io.Writer, views []fileView) error {
	for start := 0; start < len(views); start += chunk {
		part := views[start:min(start+chunk, len(views))]
		w.thumbnails(part)
		for i := range part {
			if err := w.exec(b, "file", part[i]); err != nil {
				return err
			}
			part[i].Sets = nil // the thumbnails: written, not kept
			w.done++
			if w.opts.Progress != nil {
				w.opts.Progress(w.done, w.results.Len(), part[i].Path)
			}
		}
		if err := w.ctx.Err(); err != nil {
			return context.Cause(w.ctx)
		}
	}
	return nil
}

// thumbnails draws the first page of each page set of views (the first
// MaxThumbnails of a file), opts.Jobs at a time, within the time each
// file's thumbnails and the report's may take (timeKeeper).
func (w *writer) thumbnails(views []fileView) {
	var tasks []thumbTask
	for i := range views {
		v := &views[i]
		if !v.Recorded || len(v.Sets) == 0 {
			continue
		}
		switch {
		case w.opts.Renderer == nil:
			continue // said once, in the summary
		case v.Error != "":
			v.NoThumbs = "No thumbnails: the file could not be read."
			continue
		}
		if fi, err := os.Stat(v.Path); err != nil || !fi.Mode().IsRegular() {
			v.NoThumbs = "No thumbnails: the file is not at this path now."
			continue
		}
		n, file := 0, newBudget(w.opts.Renderer.FileTime)
		for j := range v.Sets {
			s := &v.Sets[j]
			switch {
			case s.Set.Page == 0:
				s.NoThumb = "no page"
			case n >= MaxThumbnails:
				s.NoThumb = "–"
				v.NoThumbs = fmt.Sprintf("Thumbnails are drawn of the first %d page sets of a file.", MaxThumbnails)
			default:
				n++
				tasks = append(tasks, thumbTask{v, j, file})
			}
		}
	}
	jobs := make(chan thumbTask)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range min(w.opts.Jobs, len(tasks)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range jobs {
				png, err := w.draw(t.v.Path, t.v.Sets[t.set].Set.Page, t.time)
				mu.Lock()
				w.put(t, png, err)
				mu.Unlock()
			}
		}()
	}
	for _, t := range tasks {
		jobs <- t
	}
	close(jobs)
	wg.Wait()
}

// A thumbTask is the thumbnail of a file's page set to draw.
type thumbTask struct {
	v    *fileView
	set  int
	time *budget // the file's
}

// put records what drawing t gave: its thumbnail, or why it has none.
func (w *writer) put(t thumbTask, png []byte, err error) {
	s := &t.v.Sets[t.set]
	var spent *spentError
	switch {
	case errors.As(err, &spent):
		s.NoThumb = "not drawn: " + err.Error()
		t.v.Stopped = "No more thumbnails were drawn: " + spent.why + "."
		if spent.drawn {
			w.stats.Failed++
		} else {
			w.stats.Skipped++
		}
	case err != nil:
		s.NoThumb = "not drawn: " + err.Error()
		w.stats.Failed++
	default:
		s.Thumb = dataPNG(png)
		s.ThumbAlt = fmt.Sprintf("Page %d, the first page of content set %d", s.Set.Page, s.N)
		w.stats.Thumbnails++
	}
}

// A spentError is a page left without a thumbnail because the time of
// its file's thumbnails, or of the report's, was spent: before it was
// drawn, or while (drawn).
type spentError struct {
	why   string
	page  int
	drawn bool
}

func (e *spentError) Error() string {
	if e.drawn {
		return fmt.Sprintf("%s (pdftoppm stopped on page %d)", e.why, e.page)
	}
	return e.why
}

// draw renders page of file in the time w.time gives it from file's
// budget and the report's.
func (w *writer) draw(path string, page int, file *budget) ([]byte, error) {
	if err := w.ctx.Err(); err != nil {
		return nil, context.Cause(w.ctx)
	}
	t, by := w.time.take(file)
	if t <= 0 {
		return nil, &spentError{why: w.time.why(by), page: page}
	}
	start := w.time.clock.now()
	png, err := w.opts.Renderer.render(w.ctx, path, page, t)
	w.time.give(file, t, w.time.clock.now().Sub(start))
	var te *timeoutError
	if by != nil && errors.As(err, &te) {
		return nil, &spentError{why: w.time.why(by), page: page, drawn: true}
	}
	return png, err
}

func (w *writer) exec(b io.Writer, name string, data any) error {
	return w.tmpl.ExecuteTemplate(b, name, data)
}

func (w *writer) then(err error, b io.Writer, name string, data any) error {
	if err != nil {
		return err
	}
	return w.exec(b, name, data)
}

// directory writes the report as a directory of pages.
func (w *writer) directory(path string) error {
	return w.swap(path, w.pages, false)
}

func indexName(k int) string {
	if k == 1 {
		return "index.html"
	}
	return fmt.Sprintf("index-%d.html", k)
}

func filesName(k int) string { return fmt.Sprintf("files-%d.html", k) }

// pages writes every page of a directory report into dir.
func (w *writer) pages(dir string) error {
	n := w.results.Len()
	indexes := (n + indexRows - 1) / indexRows
	details := (n + filesPerPage - 1) / filesPerPage
	nav := []link{{"Summary", "index.html#summary"}, {"Files", "index.html#files-index"}, {"Rules", "rules.html"}}
	for k := 1; k <= indexes; k++ {
		first := (k - 1) * indexRows
		views := make([]fileView, 0, indexRows)
		for i := first; i < min(first+indexRows, n); i++ {
			v, err := newFileView(i+1, entryAt(w.results, i), "rules.html")
			if err != nil {
				return err
			}
			v.Page = filesName(i/filesPerPage + 1)
			views = append(views, v)
		}
		// Its files' details, a page of filesPerPage at a time.
		for p := 0; p < len(views); p += filesPerPage {
			part := views[p:min(p+filesPerPage, len(views))]
			dk := (first+p)/filesPerPage + 1
			title := fmt.Sprintf("Files %s to %s", thousands(part[0].N), thousands(part[len(part)-1].N))
			err := w.page(dir, filesName(dk), title, nav, func(b io.Writer) error {
				err := w.exec(b, "pager", pagerOf("Pages of details", dk, details, filesName))
				err = w.then(err, b, "files-start", title)
				if err == nil {
					err = w.details(b, part)
				}
				err = w.then(err, b, "files-end", nil)
				return w.then(err, b, "pager", pagerOf("Pages of details", dk, details, filesName).Bottom())
			})
			if err != nil {
				return err
			}
		}
		iv := indexView{Heading: "Files", Rows: views, Pager: pagerOf("Pages of the index", k, indexes, indexName),
			Caption: fmt.Sprintf("Files %s to %s of %s", thousands(first+1), thousands(first+len(views)), thousands(n))}
		title := fmt.Sprintf("Index, page %d of %d", k, indexes)
		err := w.page(dir, indexName(k), title, nav, func(b io.Writer) error {
			var err error
			if k == 1 {
				err = w.exec(b, "summary", w.summaryView("rules.html"))
			}
			return w.then(err, b, "index", iv)
		})
		if err != nil {
			return err
		}
	}
	return w.page(dir, "rules.html", "Rules", nav, func(b io.Writer) error { return w.exec(b, "rules", ruleViews()) })
}

// page writes one page of a directory report.
func (w *writer) page(dir, name, title string, nav []link, body func(io.Writer) error) error {
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	defer f.Close()
	cw := &countWriter{w: f}
	b := bufio.NewWriterSize(cw, 1<<16)
	err = w.exec(b, "head", w.head("Web Capture audit report: "+title, nav))
	if err == nil {
		err = body(b)
	}
	err = w.then(err, b, "foot", nil)
	if err == nil {
		err = b.Flush()
	}
	if err == nil {
		err = f.Close()
	}
	w.stats.Pages++
	w.stats.Bytes += cw.n
	return err
}

// pagerOf links the pages around page k of n: the first, the previous,
// five on each side, the next and the last.
func pagerOf(label string, k, n int, name func(int) string) *pager {
	if n <= 1 {
		return nil
	}
	p := &pager{Label: label}
	add := func(text string, i int) {
		l := link{Text: text}
		if i != k {
			l.Href = name(i)
		}
		p.Links = append(p.Links, l)
	}
	if k > 1 {
		add("First", 1)
		add("Previous", k-1)
	}
	for i := max(1, k-5); i <= min(n, k+5); i++ {
		add(thousands(i), i)
	}
	if k < n {
		add("Next", k+1)
		add(fmt.Sprintf("Last (%s)", thousands(n)), n)
	}
	return p
}

// ErrNotReport is the error for a directory at the report's path that is
// not a report webcap wrote (it has no index.html): never replaced.
var ErrNotReport = errors.New("a directory that is not a webcap HTML report (no index.html)")

// swap writes into a new temporary directory beside path (fill), then
// puts it at path: what was there (with Replace) is moved aside and
// removed after. With single, the directory holds one index.html, renamed
// to path (a one-file report where a directory report was).
func (w *writer) swap(path string, fill func(tmp string) error, single bool) error {
	old, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		old = nil
	case err != nil:
		return err
	case !w.opts.Replace:
		return &fs.PathError{Op: "write", Path: path, Err: fs.ErrExist}
	case old.IsDir():
		if _, err := os.Stat(filepath.Join(path, "index.html")); err != nil {
			return &fs.PathError{Op: "write", Path: path, Err: ErrNotReport}
		}
	case !old.Mode().IsRegular():
		return &fs.PathError{Op: "write", Path: path, Err: pdfio.ErrNotRegular}
	}
	tmp, err := os.MkdirTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := fill(tmp); err != nil {
		return err
	}
	from := tmp
	if single {
		from = filepath.Join(tmp, "index.html")
	}
	if old == nil {
		return os.Rename(from, path)
	}
	aside := tmp + ".old"
	if err := os.Rename(path, aside); err != nil {
		return err
	}
	if err := os.Rename(from, path); err != nil {
		os.Rename(aside, path) // what was there, back
		return err
	}
	return os.RemoveAll(aside)
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
