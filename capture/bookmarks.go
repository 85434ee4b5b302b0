package capture

import (
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// Bookmarks and tags, as Acrobat Web Capture made them (read from the real
// captures): every page set is tagged as an Article of class SpdrArt (the
// pages' own tags under it: pdfio.Update.AppendPages), and filed in the
// outline under an item for its site, titled with the site's registrable
// domain (webcapture.SiteTitle), as an item titled with the page's title
// (its URL when it has none) that opens the set's first page and whose
// /SE is the set's Article (a tagged bookmark). capture, append and
// refresh file pages through the functions here, so their outlines agree.

// BookmarksMode says which bookmarks a capture writes.
type BookmarksMode string

// The bookmark modes.
const (
	BookmarksSites BookmarksMode = "sites" // an item per site, an item per page set under it (the default)
	BookmarksNone  BookmarksMode = "none"  // no bookmarks
)

// bookmarksMode is m, BookmarksSites when it is "".
func bookmarksMode(m BookmarksMode) BookmarksMode {
	if m == "" {
		return BookmarksSites
	}
	return m
}

// NewAndChanged is the title of the item refresh files the page sets it
// replaced or added under, as Acrobat's Refresh Pages did.
const NewAndChanged = "New and Changed Pages"

// filed is a page set as its bookmark needs it.
type filed struct {
	url, title string           // the set's URL (as recorded) and its page's title
	page       webcapture.Ref   // its first page
	article    webcapture.Ref   // its Article; zero when it is not tagged
	reason     string           // refresh: why it is filed under NewAndChanged ("changed", "new")
	old        []webcapture.Ref // refresh: the pages a changed set had
}

// name is the set's bookmark title: its page's title, its URL when it
// has none.
func (f filed) name() string {
	if f.title == "" {
		return f.url
	}
	return f.title
}

// itemOf is a set's bookmark.
func itemOf(f filed) *pdfio.OutlineItem {
	title := f.name()
	if f.reason != "" {
		title += " (" + f.reason + ")"
	}
	return &pdfio.OutlineItem{Title: webcapture.EncodeText(title), Page: f.page, SE: f.article}
}

// siteItems files sets under an item per site, sites in the order their
// first set comes, sets in order.
func siteItems(sets []filed) []*pdfio.OutlineItem {
	var out []*pdfio.OutlineItem
	at := map[string]*pdfio.OutlineItem{}
	for _, f := range sets {
		site := webcapture.SiteTitle(f.url)
		it := at[site]
		if it == nil {
			it = &pdfio.OutlineItem{Title: webcapture.EncodeText(site)}
			at[site] = it
			out = append(out, it)
		}
		it.Kids = append(it.Kids, itemOf(f))
	}
	return out
}

// addBookmarks adds sets' bookmarks to u, each under its site's item (the
// file's own when it has one), as mode says; newFile also makes the
// viewer open with them shown (/PageMode /UseOutlines), as Acrobat's
// captures did. An outline that cannot be extended is a note, not a
// failure: the capture is kept.
func addBookmarks(u *pdfio.Update, sets []filed, mode BookmarksMode, newFile bool) (int, []string) {
	if mode == BookmarksNone || len(sets) == 0 {
		return 0, nil
	}
	if err := u.AddBookmarks(siteItems(sets)); err != nil {
		return 0, []string{"no bookmarks added: " + err.Error()}
	}
	if newFile {
		u.SetPageMode("UseOutlines")
	}
	return len(sets), nil
}

// refreshBookmarks files what refresh did: a changed set's bookmarks
// (those that opened its old pages) open its new pages, under their new
// title; a new set is filed under its site as a capture files it; and
// both are listed under NewAndChanged (the item of an earlier refresh
// replaced: it says the last one), each titled with its reason.
func refreshBookmarks(u *pdfio.Update, replaced, added []filed, mode BookmarksMode) (int, []string) {
	if mode == BookmarksNone || len(replaced)+len(added) == 0 {
		return 0, nil
	}
	fail := func(err error) (int, []string) { return 0, []string{"no bookmarks added: " + err.Error()} }
	for _, f := range replaced {
		if err := u.MoveBookmarks(f.old, f.page, f.article, webcapture.EncodeText(f.name())); err != nil {
			return fail(err)
		}
	}
	if len(added) > 0 {
		plain := make([]filed, len(added))
		for i, f := range added {
			plain[i] = f
			plain[i].reason = ""
		}
		if err := u.AddBookmarks(siteItems(plain)); err != nil {
			return fail(err)
		}
	}
	item := &pdfio.OutlineItem{Title: webcapture.EncodeText(NewAndChanged)}
	for _, f := range append(replaced, added...) {
		item.Kids = append(item.Kids, itemOf(f))
	}
	if err := u.SetBookmark(item); err != nil {
		return fail(err)
	}
	return len(item.Kids), nil
}
