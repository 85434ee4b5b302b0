package audit

// pages checks what pages carry for Web Capture besides /ID: the preferred
// zoom /PZ (ISO 32000-1 Table 30) and their link annotations' /PA, the URI
// action Web Capture keeps when it turns a URI link into a go-to link
// (ISO 32000-1 Tables 173 and 206).
func (a *auditor) pages() {
	for _, p := range a.d.Pages {
		if p.PZ != nil && !(*p.PZ > 0) {
			a.add("WC-PZ", p.Ref, "/PZ", "page %d has /PZ %g; the preferred zoom factor is a positive number", p.Number, *p.PZ)
		}
	}
	for _, pa := range a.d.PriorActions {
		what := ""
		switch {
		case pa.Kind != "a dictionary":
			what = "is " + pa.Kind
		case pa.Action == "":
			what = "is a dictionary without an action type /S"
		case pa.Action != "URI":
			what = "is a /" + pa.Action + " action"
		case !pa.URI:
			what = "is a URI action without a /URI string"
		default:
			continue
		}
		a.add("WC-LINK-PA", pa.Annot, "/PA", "the /PA of a link annotation on page %d %s; it holds the link's former URI action (a dictionary with /S /URI and a /URI string)", pa.Page, what)
	}
}
