package capture

import (
	"github.com/chromedp/cdproto/page"
	"github.com/webcap/webcap/record"
)

// printing is how every page is printed. The values are given to Chromium
// explicitly (they are its defaults: US Letter, 1 cm margins), so that what
// a command's settings record is what was used.
type printing struct {
	Width, Height float64 // paper, in inches
	Margin        float64 // each side, in inches
	Background    bool    // background colours and images
}

var printSettings = printing{Width: 8.5, Height: 11, Margin: 0.3937, Background: true}

func (s printing) apply(pp *page.PrintToPDFParams) {
	pp.PaperWidth, pp.PaperHeight = s.Width, s.Height
	pp.MarginTop, pp.MarginBottom, pp.MarginLeft, pp.MarginRight = ptr(s.Margin), ptr(s.Margin), ptr(s.Margin), ptr(s.Margin)
	pp.PrintBackground = ptr(s.Background)
}

// points turns inches into PDF points.
func points(in float64) float64 { return float64(int64(in*72*100+0.5)) / 100 }

// settings is a command's settings dictionary (PDF 1.7 §10.9.6, Table
// 10.45): every choice the capture made in rendering its pages, as
// Acrobat records its conversion settings. /G holds what any engine would
// be told (page size and margins in points, as Acrobat's /PS and /M;
// backgrounds; the media type; how long a page is given to settle); /C
// holds, under the engine's name, how Chromium itself was run.
func settings(b *Browser, opts Options) *record.Settings {
	r := renderDefaults(opts)
	m := points(printSettings.Margin)
	return &record.Settings{
		Global: map[string]any{
			"PageSize":      []any{points(printSettings.Width), points(printSettings.Height)},
			"Margins":       []any{m, m, m, m},
			"Background":    printSettings.Background,
			"Media":         r.Media,
			"Wait":          "load, lazy content, network idle, fonts and images, timers on virtual time",
			"IdleQuietMs":   r.IdleQuiet.Milliseconds(),
			"IdleMaxMs":     r.IdleMax.Milliseconds(),
			"PageTimeoutMs": opts.PageTimeout.Milliseconds(),
			// The quiet a still page waits instead of IdleQuietMs (no
			// script, handler, refresh, media, animation or prefetch:
			// stillJS), when less.
			"StillQuietMs": min(r.IdleQuiet, stillQuiet).Milliseconds(),
			// The page time its timers were given (0: none), and the time
			// each of its resources had (RenderOptions).
			"SettleMs":          max(r.Settle, 0).Milliseconds(),
			"ResourceTimeoutMs": r.ResourceTimeout.Milliseconds(),
			"Robots":            !opts.IgnoreRobots,
			// One browser context for the whole crawl, its pages in queue
			// order (true), or a context of its own for each page.
			"Session": opts.Session,
			// How pages are filed (bookmarks.go): an item per site and per
			// page set, or none; each set tagged as an SpdrArt Article
			// holding the browser's own tags of its pages.
			"Bookmarks": string(bookmarksMode(opts.Bookmarks)),
			"Tags":      "SpdrArt",
		},
		Engines: map[string]map[string]any{EngineName(b): {
			"Headless":       true,
			"Sandbox":        b.Sandboxed(),
			"Cache":          false,
			"ServiceWorkers": false,
			"LazyLoading":    "eager",
			"Scroll":         true,
			"Conditional":    false,
			"RestartEvery":   int64(b.opts.RestartEvery),
			"Tabs":           int64(opts.Jobs),
		}},
	}
}
