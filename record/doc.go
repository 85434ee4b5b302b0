// Package record records in a PDF where its pages and images came from: it
// adds the Web Capture structures (PDF 1.7 §10.9; ISO 32000-1 §14.10) a
// manifest describes — the commands that fetched the content, a page set
// per captured page and an image set per captured image, with every
// identifier computed from the captured data (webcapture.SourceID), every
// URL canonicalized for the URLS tree, every redirect chain a URL alias
// dictionary — and writes them as an incremental update: the input's bytes
// are kept as they are. The command line's "webcap build", and capture,
// append and refresh, all go through Apply.
//
// Usage:
//
//	m, err := record.ParseManifest(f, "manifest.json")
//	...
//	res, err := record.Apply(m, record.Options{})
//	// res.Output is the input PDF, then the update; res.Sets says what was written.
//
// A program may give the input's bytes and each source's bytes in the
// manifest itself (Manifest.InputData, PageSet.Data, ImageSet.Data) instead
// of files. ParseManifest validates a manifest against its JSON schema,
// docs/schemas/manifest.schema.json (shipped in package docs; webcap help
// schema manifest prints it), and refuses a name given twice in an object.
//
// Decisions: image sets of the same identifier are one set (an image's new
// URL becomes one more source of it); a page set whose auxiliary files are
// missing from the sources is refused, since its identifier would be wrong,
// unless PageSet.Partial says the caller reports them; nothing is written
// until everything checks (a *ManifestError names the field). Built from a
// WARC file (Manifest.WARC, Options.WARC), a set the manifest gives no
// redirects or no capture time gets the archive's: the redirect chains that
// end at its URL (warc.Source.ChainsTo) and its response's WARC-Date
// (warc.Source.Captured, to the second); what the manifest gives is kept.
package record
