// The frontier's bounds: the links taken from one page, and the URLs
// queued at once.

package capture

// DefaultMaxLinks is how many of a page's links a crawl looks at: the
// first, in document order; the rest are said in one Skip of kind
// SkipLinkLimit.
const DefaultMaxLinks = 1000

// maxQueue bounds a frontier without a page limit: past it, a URL is not
// queued (and Rest says so).
const maxQueue = 100_000

// SkipLinkLimit is the kind of the Skip of a page whose links were not
// all looked at (its URL is the page's).
const SkipLinkLimit = "link-limit"

// linkLimit is how many links of one page are looked at.
func (f *Frontier) linkLimit() int {
	if f.maxLinks > 0 {
		return f.maxLinks
	}
	return DefaultMaxLinks
}

// SetMaxLinks sets how many links of one page Links looks at (n <= 0:
// DefaultMaxLinks).
func (f *Frontier) SetMaxLinks(n int) { f.maxLinks = n }

// room reports whether one more URL may be queued: a crawl of MaxPages
// takes no more than the pages it has left, so a queue longer than twice
// that (and a hundred more, for the URLs a redirect takes out of it:
// Fetched) holds URLs it will never fetch; without a page limit, at
// most maxQueue.
func (f *Frontier) room() bool {
	if f.maxPages <= 0 {
		return len(f.queue) < maxQueue
	}
	return len(f.queue) < 2*(f.maxPages-f.taken)+100
}

// overSkip is the Skip of a URL not queued for want of room.
func (f *Frontier) overSkip(u string) Skip {
	if f.maxPages <= 0 {
		return skip(u, SkipLinkLimit, "not queued: the crawl's queue holds %d URLs at most", maxQueue)
	}
	return skip(u, SkipPageLimit, "the capture's page limit was reached (%d pages)", f.maxPages)
}
