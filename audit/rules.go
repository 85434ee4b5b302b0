package audit

// Severity is how bad a finding is. The policy is set by what real files
// show: every viewer reads what Acrobat writes, so a departure Acrobat makes
// is not an error.
type Severity int

// The severities, least first. Their names in reports (String) are "info",
// "warning" and "error".
const (
	// Notice is worth knowing and not wrong: PDF 2.0 deprecation, a page
	// set's /O out of page order, a source that cannot be checked.
	Notice Severity = iota
	// Caution is a departure that Acrobat itself makes or that breaks no
	// lookup: SpiderInfo /V 1.25 where ISO 32000-1 Table 350 wants 1.0
	// (Acrobat 5 to 15 write 1.25), a one-element /R array where Table 354
	// wants an integer, an empty << >> tree, a password in a URL.
	Caution
	// Serious is a structure that is broken or a lookup that gives a wrong
	// or no answer: a missing required key, a wrong type, unsorted or
	// duplicate tree keys, an IDS key that is not its set's /ID, a page /ID
	// that finds no parent, a non-canonical URLS key.
	Serious
)

// String returns the severity's name in reports: "error", "warning" or
// "info".
func (s Severity) String() string {
	switch s {
	case Serious:
		return "error"
	case Caution:
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
	// The file's syntax: what the reader had to repair, or could not read.
	{"WC-PDF-XREF", Serious, "PDF 1.7 §3.4.3-3.4.4, §3.4.7; ISO 32000-1 §7.5.4-7.5.5, §7.5.8", "not well-formed: startxref reaches no whole cross-reference section, or a section (through /Prev) is malformed, and the table was rebuilt by scanning; or the /Prev chain loops, and each section was read once, newest first; or a cross-reference stream inflates to more than its entries need"},
	{"WC-PDF-OFFSET", Serious, "PDF 1.7 §3.4.3; ISO 32000-1 §7.5.4", "not well-formed: a cross-reference entry's offset where its object does not begin"},
	{"WC-PDF-LENGTH", Serious, "PDF 1.7 §3.2.7; ISO 32000-1 §7.3.8.2", "not well-formed: a stream whose /Length does not reach \"endstream\""},
	{"WC-PDF-UNREADABLE", Serious, "PDF 1.7 §3.2; ISO 32000-1 §7.3", "not well-formed: an object the cross-reference data lists that cannot be parsed (cut short, nested too deep)"},
	{"WC-PDF-RECOVERED", Notice, "PDF 1.7 §3.4.6; ISO 32000-1 §7.5.7", "objects the damaged cross-reference data lost, recovered from the object streams that hold them (the damage itself is WC-PDF-XREF)"},
	// Certification.
	{"WC-CERTIFIED", Notice, "PDF 1.7 §8.7.1, §8.7.3; ISO 32000-1 §12.8.2.2, §12.8.4", "a certified document (DocMDP): an update that adds pages or content sets breaks the certification, so writers refuse it without --force"},
	{"WC-CERTIFIED-AFTER", Caution, "PDF 1.7 §8.7.1, Table 8.104; ISO 32000-1 §12.8.2.2, Table 254", "Web Capture structures added after the document was certified, which no DocMDP permission allows"},
	// Seals: signatures and document timestamps (audit/seals.go, package seal).
	{"WC-SEAL-FORMAT", Serious, "ISO 32000-2 §12.8.1, Tables 255-256; RFC 5652; RFC 3161", "a signature dictionary, its CMS signature or its time-stamp token that cannot be read, or an unknown /SubFilter: the seal proves nothing"},
	{"WC-SEAL-RANGE", Serious, "ISO 32000-2 §12.8.1, Table 255 (/ByteRange)", "a /ByteRange that is not [0 a b c] covering its revision whole except its own /Contents hex string: a gap, an overlap, a range past the end of the file or ending inside a revision"},
	{"WC-SEAL-DIGEST", Serious, "RFC 5652 §5.4, §11.2; RFC 3161 §2.4.2; ISO 32000-2 §12.8.5", "the covered bytes' digest is not the signed digest or the token's imprint, or the signature value does not verify: the covered bytes were changed"},
	{"WC-SEAL-UNTRUSTED", Caution, "RFC 5280 §6; ISO 32000-2 §12.8.3", "a seal that verifies, but whose signer's or TSA's chain does not reach the trust anchors (audit --trust CA.pem), or no --trust was given"},
	{"WC-SEAL-TIME", Serious, "ISO 32000-2 §12.8.5; PDF 1.7 §10.9.5 (/TS)", "a seal's time (its token's, else the claimed /M) before the /TS of a content set it covers, or after the time of a later seal that covers it"},
	{"WC-SEAL-AFTER", Serious, "ISO 32000-2 §7.5.6, §12.8.2.2.2 Table 257, §12.8.4.3", "an update after the last seal changes more than a DSS, a document timestamp or a signature: the message names the objects, pages and content sets no seal covers (an object nothing reachable refers to changes nothing shown: it is mentioned, never counted); an update that changes only the document information or XMP metadata is named as a warning, not an error (it changes no page, and a writer may rewrite /ModDate when it saves after a signature)"},
	{"WC-SEAL-DOCMDP", Serious, "ISO 32000-2 §12.8.2.2, Table 257; ISO 32000-1 Table 254", "an update after a certification signature changes what its DocMDP permission (/P) does not allow"},
	{"WC-SEAL-VERIFIED", Notice, "ISO 32000-2 §12.8; RFC 5652; RFC 3161", "a seal that verifies: its kind, signer, time, the bytes it covers, and whether its chain is trusted"},
	{"WC-DANGLING", Serious, "PDF 1.7 §3.2.9", "a reference to an object that does not exist"},
	{"WC-CYCLE", Serious, "PDF 1.7 §3.8.5", "a reference chain or name tree that loops"},
	{"WC-LIMIT", Serious, "webcap", "a tree deeper or larger than the reader's bounds, or a stream that decodes to more than they allow: the rest, or what needs the stream, was not checked"},
	{"WC-TYPE", Serious, "ISO 32000-1 Tables 350-359", "a key whose value has a type the specification does not allow"},
	{"WC-VALUE", Serious, "ISO 32000-1 §7.9.4", "a value of the right type that cannot be read (a date, a flag field, a stream)"},
	{"WC-TREE-NODE", Serious, "PDF 1.7 §3.8.5, Table 3.33", "a malformed name-tree node: no /Kids or /Names, an odd /Names, a key that is not a string"},
	{"WC-TREE-ORDER", Serious, "PDF 1.7 §3.8.5", "name-tree keys not in byte order"},
	{"WC-TREE-DUPLICATE", Serious, "PDF 1.7 §3.8.5", "a name-tree key that appears twice"},
	{"WC-TREE-LIMITS", Serious, "PDF 1.7 Table 3.33", "/Limits missing from a node, or not its least and greatest keys"},
	{"WC-TREE-ROOT-LIMITS", Caution, "PDF 1.7 Table 3.33", "/Limits on a root node, which has none"},
	{"WC-TREE-SHARED", Serious, "PDF 1.7 §3.8.5", "a name-tree node reached twice"},
	{"WC-TREE-VALUE", Serious, "ISO 32000-1 §14.10.3.1", "an IDS or URLS value that is not a content set or an array of content sets"},
	{"WC-TREE-EMPTY", Caution, "PDF 1.7 §3.8.5, Table 3.33", "an empty << >> IDS or URLS tree (Acrobat leaves them when pages are replaced)"},
	{"WC-TREE-EMPTY-NAMES", Caution, "PDF 1.7 §3.8.5, Table 3.33", "an IDS or URLS tree with no entry: an empty /Names (or /Kids) array (no real file has one; Acrobat leaves << >>)"},
	// Version.
	{"WC-VERSION", Serious, "PDF 1.7 §10.9", "Web Capture structures in a file older than PDF 1.3"},
	{"WC-DEPRECATED", Notice, "ISO 32000-2 §14.10.1", "Web Capture is deprecated in PDF 2.0"},
	// SpiderInfo and commands.
	{"WC-INFO-V", Serious, "ISO 32000-1 Table 350", "SpiderInfo has no /V"},
	{"WC-INFO-V-VALUE", Caution, "ISO 32000-1 Table 350", "SpiderInfo /V is not 1.0 (Acrobat writes 1.25)"},
	{"WC-CMD-URL", Serious, "ISO 32000-1 Table 357", "a command without /URL"},
	{"WC-CMD-LEVELS", Caution, "ISO 32000-1 Table 357; Arlington", "a command's /L below 1"},
	{"WC-CMD-FLAGS", Serious, "ISO 32000-1 Table 358", "a command's /F sets reserved bits"},
	{"WC-CMD-CT", Caution, "ISO 32000-1 Table 357", "a command's /CT without /P (CT is only for POST)"},
	{"WC-CMD-HEADERS", Caution, "ISO 32000-1 Table 357", "a command's /H line that does not end in CR LF"},
	{"WC-CMD-SETTINGS-SHARED", Serious, "ISO 32000-1 §14.10.5.4", "an object under a command settings dictionary that something outside it refers to"},
	{"WC-CMD-ENGINE", Serious, "ISO 32000-1 §14.10.5.4", "a command-settings /C key that is not company:product:version:contentType"},
	// Content sets.
	{"WC-CS-S", Serious, "ISO 32000-1 Table 352", "a content set whose /S is missing or not SPS or SIS"},
	{"WC-CS-TYPE", Serious, "ISO 32000-1 Table 352", "a content set whose /Type is not SpiderContentSet"},
	{"WC-CS-SUBTYPE-KEY", Caution, "ISO 32000-1 Tables 353-354", "a key of the other subtype: /T or /TID on an image set, /R on a page set"},
	{"WC-CS-ID", Serious, "ISO 32000-1 Table 352", "a content set without /ID"},
	{"WC-CS-ID-LENGTH", Caution, "PDF 1.7 §10.9.2", "an identifier that is not 16 bytes (MD5)"},
	{"WC-CS-TID-LENGTH", Caution, "PDF 1.7 §10.9.2; ISO 32000-1 Table 353", "a page set's text identifier /TID that is not 16 bytes (MD5)"},
	{"WC-CS-O", Serious, "ISO 32000-1 Table 352", "a content set without /O"},
	{"WC-CS-O-TARGET", Serious, "ISO 32000-1 Table 352", "an /O entry that is not a page (page set) or an image XObject (image set)"},
	{"WC-CS-O-ORDER", Notice, "ISO 32000-1 §14.10.4.2", "a page set's /O not in page order (it records the order pages were added, which moving pages changes)"},
	{"WC-CS-SI", Serious, "ISO 32000-1 Table 352", "a content set without /SI"},
	{"WC-CS-ORPHAN", Caution, "ISO 32000-1 §14.10.3.1", "a content set that neither IDS nor URLS reaches"},
	{"WC-R", Serious, "ISO 32000-1 Table 354", "an image set without /R"},
	{"WC-R-SHAPE", Serious, "ISO 32000-1 Table 354", "/R that does not match /O: an array of another length, or an integer for several objects"},
	{"WC-R-ARRAY1", Caution, "ISO 32000-1 Table 354", "/R as a one-element array for a single object (Acrobat writes it so; ISO wants an integer)"},
	{"WC-R-NEGATIVE", Serious, "ISO 32000-1 §14.10.4.3", "a negative reference count"},
	{"WC-R-ZERO", Caution, "PDF 1.7 Appendix H, note 165", "a reference count of 0: no page names the image in its resources (Acrobat counts only those; the image may still be drawn through a pattern, a form or an annotation)"},
	{"WC-R-COUNT", Caution, "ISO 32000-1 §14.10.4.3", "a reference count that is neither the number of pages whose resources name the image (what Acrobat counts) nor the number that use it at all, through forms, tiling patterns and annotations too"},
	{"WC-IMAGE-UNUSED", Caution, "PDF 1.7 Appendix H, note 165", "an image XObject of a capture (in an image set, or with /ID) that no page uses, directly or through forms, tiling patterns or annotations"},
	{"WC-FORM-ID", Caution, "PDF 1.7 §10.9.5", "a Form XObject with /ID (only pages and image XObjects carry a content set's identifier)"},
	// Source information.
	{"WC-SI-AU", Serious, "ISO 32000-1 Table 355", "source information without /AU (or an alias dictionary without /U)"},
	{"WC-SI-S", Serious, "ISO 32000-1 Table 355", "a source information /S other than 0, 1 or 2"},
	{"WC-SI-PAGESET", Caution, "ISO 32000-1 Table 355", "/S or /C in the source information of an image set (page sets only)"},
	{"WC-SI-C", Serious, "ISO 32000-1 Table 355", "a source information /C that is not an indirect reference to a command dictionary"},
	{"WC-SI-SHA256", Serious, "webcap (docs/sha256.md); ISO 32000-1 Annex E", "webcap's private /WCSHA256 in a source information that is not a byte string of 32 bytes (absent is fine)"},
	{"WC-SI-DUPLICATE", Caution, "ISO 32000-1 §14.10.5.1", "one URL (in canonical form) named by two source information dictionaries of one /SI array"},
	{"WC-ALIAS-EMPTY", Caution, "ISO 32000-1 Table 356", "a URL alias /C that holds no redirect chain (/C []), or a chain that holds no URL"},
	// Invariants between the structures.
	{"WC-IDS-KEY", Serious, "PDF 1.7 §10.9.3, Table 10.38; ISO 32000-1 Table 352", "an IDS key that differs from its content set's /ID"},
	{"WC-PARENT", Serious, "ISO 32000-1 §14.10.6", "a page or image whose /ID finds no content set through IDS whose /O holds it, in a file with Web Capture structures"},
	{"WC-ID-RESIDUE", Caution, "ISO 32000-1 §14.10.6", "a page or image /ID in a file with no SpiderInfo, IDS, URLS or content set (residue of a capture saved without them)"},
	{"WC-MEMBER-TWICE", Serious, "ISO 32000-1 §14.10.6", "a page or image in the /O of more than one content set"},
	{"WC-MEMBER-ID", Caution, "ISO 32000-1 §14.10.6", "a member of a content set whose /ID is missing or differs from the set's"},
	{"WC-CS-REDIRECT-DUPLICATE", Serious, "ISO 32000-1 §14.10.5.1, Table 356", "two content sets of one subtype and one /ID that hold one fetched resource: a URL of one is in a redirect chain of the other, or one URLS key holds both (keep one set with every URL in its alias chains)"},
	{"WC-URLS-CANONICAL", Serious, "PDF 1.7 §10.9.2 URL Strings", "a URLS key that is not in canonical form"},
	{"WC-URLS-NONASCII", Caution, "PDF 1.7 §10.9.2 URL Strings; ISO 32000-1 §14.10.3.2", "a URLS key that differs from its canonical form only by raw non-ASCII bytes (Acrobat 10 wrote such)"},
	{"WC-URLS-SOURCE", Caution, "ISO 32000-1 §14.10.3.1, Table 355", "a URLS key that names none of its content set's source URLs"},
	{"WC-ASCII", Serious, "ISO 32000-1 Tables 352-357", "an ASCII string (a content set's or a command's /CT) that holds other bytes"},
	{"WC-URL-NONASCII", Caution, "ISO 32000-1 Tables 355-357", "a URL (source, alias, command) that holds raw non-ASCII bytes (Acrobat 10 wrote such)"},
	{"WC-URL-PASSWORD", Caution, "RFC 2396 §7", "a URL that carries a password"},
	// Pages and links.
	{"WC-PZ", Caution, "ISO 32000-1 Table 30", "a page's preferred zoom /PZ that is not a positive number"},
	{"WC-LINK-PA", Serious, "ISO 32000-1 Tables 173, 206", "a link annotation's /PA that is not a URI action (a dictionary with /S /URI and a /URI string)"},
	// Tagged bookmarks and the structure tree.
	{"WC-OUTLINE-ENTRY", Serious, "PDF 1.7 §8.2.2, Tables 8.3-8.4; ISO 32000-1 Tables 152-153", "an outline entry of the wrong type: /Outlines or an item not a dictionary, /First or /Next not an item, /Title not a string, /Dest or /A not a destination or an action, /SE not a reference"},
	{"WC-STRUCT-ENTRY", Serious, "PDF 1.7 §10.6, Tables 10.9-10.11; ISO 32000-1 Tables 322-324, §7.9.7", "a structure-tree entry of the wrong type: /StructTreeRoot, /RoleMap or a /ParentTree node not a dictionary, /S not a name, /C not a name or an array, /Pg not a page reference, a /K kid, or a number-tree key or /Nums not what Table 3.34 wants"},
	{"WC-SE-ARTICLE", Caution, "PDF 1.7 §10.9.5, Table 8.4; ISO 32000-1 §14.10.6, Table 153", "a tagged bookmark (an outline item with /SE) whose element is not an Article of class SpdrArt with marked content on the page set (or the page) its destination goes to"},
	{"WC-ARTICLE-SETS", Caution, "PDF 1.7 §10.9.5; ISO 32000-1 §14.10.6", "an Article of class SpdrArt with marked content on pages of two or more page sets (Web Capture makes one Article per page set)"},
	{"WC-STRUCTPARENTS-SHARED", Serious, "PDF 1.7 §10.6.4, Table 3.27; ISO 32000-1 §14.7.4.4, Table 30", "two pages with one /StructParents key: the marked content of one is mapped to the other's structure elements"},
	{"WC-PARENTTREE-KEY", Serious, "PDF 1.7 §10.6.4, Table 10.9; ISO 32000-1 §14.7.4.4, Table 322", "a /ParentTree that does not resolve: a page's /StructParents key it does not hold, or an entry that is not an array of elements or an element"},
	// The embedded web archive (capture --embed-warc): the file checked against its own source.
	{"WC-EMBED-CHECKSUM", Serious, "ISO 32000-2 §7.11.4, Table 45 (Params /Size, /CheckSum)", "an embedded file whose /Params /Size or /CheckSum (MD5) does not match the bytes its stream holds"},
	{"WC-EMBED-UNREADABLE", Serious, "ISO 32000-2 §7.11.4, §14.13; ISO 28500:2017", "the embedded WARC (/AFRelationship /Source, application/warc) cannot be read: a filter not decoded here, a damaged stream, or no WARC file within the reader's limits"},
	{"WC-EMBED-MISMATCH", Serious, "PDF 1.7 §10.9.2; ISO 32000-2 §14.13", "a content set's /ID differs from the identifier recomputed from the file's own embedded WARC: the file contradicts the archive it carries as its source"},
	{"WC-EMBED-DIGEST", Serious, "ISO 28500:2017 §5.8, §5.9; ISO 32000-2 §14.13", "a record of the embedded WARC whose WARC-Block-Digest or WARC-Payload-Digest does not match its bytes"},
	{"WC-EMBED-MISSING", Caution, "PDF 1.7 §10.9.2; ISO 32000-2 §14.13", "none of a content set's source URLs has a response in the embedded WARC, or an update after the WARC was embedded wrote the set: the archive does not vouch for it"},
	{"WC-EMBED-VERIFIED", Notice, "PDF 1.7 §10.9.2; ISO 32000-2 §14.13", "how many content sets were verified against the embedded WARC alone (their /ID, and /WCSHA256, recomputed from its responses)"},
	// With --sources: the identifiers recomputed from the captured data.
	{"WC-SOURCE-MISMATCH", Caution, "PDF 1.7 §10.9.2", "a content set's /ID differs from the identifier of its source as it is now (changed since the capture, or a wrong ID)"},
	{"WC-SOURCE-MISSING", Notice, "PDF 1.7 §10.9.2", "none of a content set's source URLs is among the sources given"},
	{"WC-SOURCE-INCOMPLETE", Notice, "PDF 1.7 §10.9.2", "a page set's identifier cannot be recomputed: some auxiliary files are missing"},
	{"WC-SOURCE-SHA256", Serious, "webcap (docs/sha256.md)", "a source information's /WCSHA256 differs from the SHA-256 of its URL's bytes among the sources given, where the set's /ID does not (a wrong /WCSHA256, or other bytes with the same MD5)"},
	{"WC-SOURCE-DIGEST", Caution, "ISO 28500:2017 §5.8, §5.9 (WARC 1.1: WARC-Block-Digest, WARC-Payload-Digest); webcap (docs/sha256.md)", "a record of the WARC file given as sources whose WARC-Block-Digest or WARC-Payload-Digest does not match its bytes: the archive contradicts itself, and what it holds for that URL vouches for nothing"},
	{"WC-SOURCE-FORM", Notice, "PDF 1.7 §10.9.2 Digital Identifiers; ISO 32000-1 §14.10.3.3", "a page set's identifier matches when its auxiliary identifiers are hashed as hex digits, not raw bytes"},
}

// ruleByID indexes Rules.
var ruleByID = func() map[string]Rule {
	m := map[string]Rule{}
	for _, r := range Rules {
		m[r.ID] = r
	}
	return m
}()
