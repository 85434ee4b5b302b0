package audit

// Severity is how bad a finding is, by the project's policy
// (../shared/spec/webcapture.md, "Severity policy"): an error means the
// structure is broken or a lookup gives a wrong or no answer; a warning is a
// departure Acrobat itself makes or that breaks no lookup; info is
// everything worth knowing that is not wrong.
type Severity int

// The severities, least first.
const (
	Info Severity = iota
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "info"
}

// A Rule is one thing the auditor checks.
type Rule struct {
	ID       string
	Severity Severity
	Spec     string // where the rule comes from
	Summary  string
}

// Rules lists every rule, in the order docs/rules.md documents them.
var Rules = []Rule{
	// Reading and structure (from the reader's defects).
	{"WC-DANGLING", Error, "PDF 1.7 §3.2.9", "a reference to an object that does not exist"},
	{"WC-CYCLE", Error, "PDF 1.7 §3.8.5", "a reference chain or name tree that loops"},
	{"WC-LIMIT", Error, "webcap", "a tree deeper or larger than the reader's bounds: the rest was not checked"},
	{"WC-TYPE", Error, "ISO 32000-1 Tables 350-359", "a key whose value has a type the specification does not allow"},
	{"WC-VALUE", Error, "ISO 32000-1 §7.9.4", "a value of the right type that cannot be read (a date, a flag field, a stream)"},
	{"WC-TREE-NODE", Error, "PDF 1.7 §3.8.5, Table 3.33", "a malformed name-tree node: no /Kids or /Names, an odd /Names, a key that is not a string"},
	{"WC-TREE-ORDER", Error, "PDF 1.7 §3.8.5", "name-tree keys not in byte order"},
	{"WC-TREE-DUPLICATE", Error, "PDF 1.7 §3.8.5", "a name-tree key that appears twice"},
	{"WC-TREE-LIMITS", Error, "PDF 1.7 Table 3.33", "/Limits missing from a node, or not its least and greatest keys"},
	{"WC-TREE-ROOT-LIMITS", Warning, "PDF 1.7 Table 3.33", "/Limits on a root node, which has none"},
	{"WC-TREE-SHARED", Error, "PDF 1.7 §3.8.5", "a name-tree node reached twice"},
	{"WC-TREE-VALUE", Error, "ISO 32000-1 §14.10.3.1", "an IDS or URLS value that is not a content set or an array of content sets"},
	{"WC-TREE-EMPTY", Warning, "realworld README, observation 11", "an empty << >> IDS or URLS tree (Acrobat leaves them when pages are replaced)"},
	// Version.
	{"WC-VERSION", Error, "PDF 1.7 §10.9", "Web Capture structures in a file older than PDF 1.3"},
	{"WC-DEPRECATED", Info, "ISO 32000-2 §14.10.1", "Web Capture is deprecated in PDF 2.0"},
	// SpiderInfo and commands.
	{"WC-INFO-V", Error, "ISO 32000-1 Table 350", "SpiderInfo has no /V"},
	{"WC-INFO-V-VALUE", Warning, "ISO 32000-1 Table 350", "SpiderInfo /V is not 1.0 (Acrobat writes 1.25)"},
	{"WC-CMD-URL", Error, "ISO 32000-1 Table 357", "a command without /URL"},
	{"WC-CMD-LEVELS", Warning, "ISO 32000-1 Table 357; Arlington", "a command's /L below 1"},
	{"WC-CMD-FLAGS", Error, "ISO 32000-1 Table 358", "a command's /F sets reserved bits"},
	{"WC-CMD-CT", Warning, "ISO 32000-1 Table 357", "a command's /CT without /P (CT is only for POST)"},
	{"WC-CMD-HEADERS", Warning, "ISO 32000-1 Table 357", "a command's /H line that does not end in CR LF"},
	{"WC-CMD-SETTINGS-SHARED", Error, "ISO 32000-1 §14.10.5.4", "an object under a command settings dictionary that something outside it refers to"},
	{"WC-CMD-ENGINE", Error, "ISO 32000-1 §14.10.5.4", "a command-settings /C key that is not company:product:version:contentType"},
	// Content sets.
	{"WC-CS-S", Error, "ISO 32000-1 Table 352", "a content set whose /S is missing or not SPS or SIS"},
	{"WC-CS-TYPE", Error, "ISO 32000-1 Table 352", "a content set whose /Type is not SpiderContentSet"},
	{"WC-CS-SUBTYPE-KEY", Warning, "ISO 32000-1 Tables 353-354", "a key of the other subtype: /T or /TID on an image set, /R on a page set"},
	{"WC-CS-ID", Error, "ISO 32000-1 Table 352", "a content set without /ID"},
	{"WC-CS-ID-LENGTH", Warning, "PDF 1.7 §10.9.2", "an identifier that is not 16 bytes (MD5)"},
	{"WC-CS-O", Error, "ISO 32000-1 Table 352", "a content set without /O"},
	{"WC-CS-O-TARGET", Error, "ISO 32000-1 Table 352", "an /O entry that is not a page (page set) or an image XObject (image set)"},
	{"WC-CS-O-ORDER", Info, "ISO 32000-1 §14.10.4.2", "a page set's /O not in page order (it records the order pages were added, which moving pages changes)"},
	{"WC-CS-SI", Error, "ISO 32000-1 Table 352", "a content set without /SI"},
	{"WC-CS-ORPHAN", Warning, "ISO 32000-1 §14.10.3.1", "a content set that neither IDS nor URLS reaches"},
	{"WC-R", Error, "ISO 32000-1 Table 354", "an image set without /R"},
	{"WC-R-SHAPE", Error, "ISO 32000-1 Table 354", "/R that does not match /O: an array of another length, or an integer for several objects"},
	{"WC-R-ARRAY1", Warning, "ISO 32000-1 Table 354", "/R as a one-element array for a single object (Acrobat writes it so; ISO wants an integer)"},
	{"WC-R-NEGATIVE", Error, "ISO 32000-1 §14.10.4.3", "a negative reference count"},
	{"WC-R-ZERO", Warning, "PDF 1.7 Appendix H, note 165", "a reference count of 0: the image may be removed"},
	// Source information.
	{"WC-SI-AU", Error, "ISO 32000-1 Table 355", "source information without /AU (or an alias dictionary without /U)"},
	{"WC-SI-S", Error, "ISO 32000-1 Table 355", "a source information /S other than 0, 1 or 2"},
	{"WC-SI-PAGESET", Warning, "ISO 32000-1 Table 355", "/S or /C in the source information of an image set (page sets only)"},
	// Invariants (§6).
	{"WC-IDS-KEY", Error, "PDF 1.7 §10.9.3; spec digest §6", "an IDS key that differs from its content set's /ID"},
	{"WC-PARENT", Error, "ISO 32000-1 §14.10.6", "a page or image whose /ID finds no content set through IDS whose /O holds it"},
	{"WC-MEMBER-TWICE", Error, "ISO 32000-1 §14.10.6", "a page or image in the /O of more than one content set"},
	{"WC-MEMBER-ID", Warning, "ISO 32000-1 §14.10.6", "a member of a content set whose /ID is missing or differs from the set's"},
	{"WC-CS-REDIRECT-DUPLICATE", Error, "ISO 32000-1 §14.10.5.1, Table 356", "two content sets of one subtype and one /ID that hold one fetched resource: a URL of one is in a redirect chain of the other, or one URLS key holds both (keep one set with every URL in its alias chains)"},
	{"WC-URLS-CANONICAL", Error, "PDF 1.7 §10.9.2 URL Strings", "a URLS key that is not in canonical form"},
	{"WC-URLS-NONASCII", Warning, "realworld README; spec digest severity policy", "a URLS key that differs from its canonical form only by raw non-ASCII bytes"},
	{"WC-URLS-SOURCE", Warning, "spec digest §6", "a URLS key that names none of its content set's source URLs"},
	{"WC-ASCII", Error, "ISO 32000-1 Tables 352-357", "an ASCII string (a content type) that holds other bytes"},
	{"WC-URL-NONASCII", Warning, "realworld README; spec digest severity policy", "a URL (source, alias, command) that holds raw non-ASCII bytes (Acrobat 10 wrote such)"},
	{"WC-URL-PASSWORD", Warning, "RFC 2396 §7", "a URL that carries a password"},
	// With --sources: the identifiers recomputed from the captured data.
	{"WC-SOURCE-MISMATCH", Warning, "PDF 1.7 §10.9.2", "a content set's /ID differs from the identifier of its source as it is now (changed since the capture, or a wrong ID)"},
	{"WC-SOURCE-MISSING", Info, "PDF 1.7 §10.9.2", "none of a content set's source URLs is among the sources given"},
	{"WC-SOURCE-INCOMPLETE", Info, "PDF 1.7 §10.9.2", "a page set's identifier cannot be recomputed: some auxiliary files are missing"},
	{"WC-SOURCE-FORM", Info, "spec digest §4.1", "a page set's identifier matches when its auxiliary identifiers are hashed as hex digits, not raw bytes"},
}

// ruleByID indexes Rules.
var ruleByID = func() map[string]Rule {
	m := map[string]Rule{}
	for _, r := range Rules {
		m[r.ID] = r
	}
	return m
}()
