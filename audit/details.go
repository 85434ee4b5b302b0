package audit

import "strings"

// Detail returns what docs/rules.md explains of the rule beyond its
// summary, as one paragraph of plain text (it may speak of the rules of its
// group too); "" for most rules. TestRuleDetailsAreDocumented keeps the two
// the same.
func (r Rule) Detail() string { return ruleDetails[r.ID] }

// ruleDetails holds each rule's Detail.
var ruleDetails = func() map[string]string {
	m := map[string]string{}
	for _, d := range details {
		for _, id := range d.rules {
			m[id] = strings.Join(strings.Fields(d.text), " ")
		}
	}
	return m
}()

// details are docs/rules.md's paragraphs after its table, in its order,
// without the Markdown (code spans and emphasis), each with the rules it
// explains.
var details = []struct {
	rules []string
	text  string
}{
	{
		rules: []string{"WC-CS-REDIRECT-DUPLICATE"},
		text: `WC-CS-REDIRECT-DUPLICATE is the same fetched resource captured twice: /old-page redirected (3xx)
to /about.html, and the file holds two sets with one /ID, one whose /AU is a URL alias
dictionary (/U http://h/about.html /C [[http://h/old-page http://h/about.html]]) and one whose
/AU is http://h/about.html. Two sets of one subtype and one /ID are linked when a URL of one
set's sources (its /AU, /U or any URL of any chain), canonicalized by the profile, is in a
redirect chain of the other (a chain ends in its dictionary's /U), or when one URLS key
(canonicalized) holds both. A lookup by that URL then gives two answers, which diverge once one
set is refreshed, so it is an error. It is reported once per linked group, on the set with the
greatest object number, naming the other sets and the redirect or key that links them. Not
flagged: one set whose /SI is an array with one source information dictionary per URL (what the
specification asks for); two sets with one /ID reached from unrelated URLs (a processor may
merge them); a page set and an image set with one /ID (Figure 10.2).`,
	},
	{
		rules: []string{"WC-R-ZERO", "WC-R-COUNT", "WC-IMAGE-UNUSED"},
		text: `WC-R-ZERO, WC-R-COUNT and WC-IMAGE-UNUSED compare an image set's counts with how the pages use
each image. The reader walks every page's resources (its own or inherited from the page tree)
and counts, for each image XObject, the pages that name it in their /XObject resources (direct
use), and the pages that use it at all: through Form XObjects, tiling patterns, Type 3 fonts and
soft masks (recursively, each object once, loops cut), annotation appearance streams and widget
icons (/AP, /MK), as another image's /SMask or /Mask, and as a page thumbnail. Acrobat's /R is
the direct count: in the real files every one of the 54 counts equals it, and the 29 counts of 0
are images drawn only through tiling patterns (28, in pdfcpu__sample01.pdf and endesive__...) or
a widget's icon (1, PdfPig__0000505.pdf), plus 2 images that no page uses. So a count of 0 is a
warning whose message says which of these it is, and suggests removing the image from /O only
when no page uses it at all; a count is WC-R-COUNT only when it is neither the direct count nor
the count of every page that uses the image.`,
	},
	{
		rules: []string{"WC-ID-RESIDUE"},
		text: `WC-ID-RESIDUE: a capture re-saved by a program that drops SpiderInfo and the name trees can
leave /ID on its pages and images. With no SpiderInfo, IDS, URLS or content set left there is
nothing for the /ID to find, and nothing is wrong with a lookup, so it is a warning. In a file
that has Web Capture structures, a /ID that finds no parent is WC-PARENT, an error.`,
	},
	{
		rules: []string{"WC-TREE-EMPTY-NAMES"},
		text: `WC-TREE-EMPTY-NAMES: no real file holds an IDS or URLS tree with an empty /Names array (Acrobat
leaves << >>, WC-TREE-EMPTY); like that residue it answers every lookup correctly (with
nothing), so it is a warning too.`,
	},
	{
		rules: []string{"WC-SOURCE-MISMATCH", "WC-SOURCE-MISSING", "WC-SOURCE-INCOMPLETE", "WC-SOURCE-FORM", "WC-SOURCE-SHA256", "WC-SOURCE-DIGEST"},
		text: `The WC-SOURCE-* rules run only with --sources DIR|MANIFEST (a wget --mirror directory or a JSON
manifest of URL: file): each content set's identifier is recomputed from its source as it is now
(image sets and PDFs: the MD5 of the bytes; HTML page sets: the page and its auxiliary files,
with the three forms of auxiliary identifiers tried). Where a source information carries webcap's
/WCSHA256, the SHA-256 of its URL's bytes among the sources is compared with it too, unless the
set's /ID already differs (the source changed: WC-SOURCE-MISMATCH says so); a SHA-256 that differs
where the MD5 identifier does not is WC-SOURCE-SHA256. A file without /WCSHA256 is not checked,
and has no finding for it. With a WARC file as sources, a message about a URL names the response
record that holds its bytes (WARC-Record-ID, WARC-Payload-Digest, Content-Encoding), and each
record whose WARC-Block-Digest or WARC-Payload-Digest does not match its bytes is
WC-SOURCE-DIGEST: a warning, since the archive is at fault, not the PDF, but an archive that
contradicts itself must not vouch for a PDF in silence. It is reported on the content set whose
source URL the record holds, or on the file when no set has it. A mirror's or manifest's files
are read inside its directory only: a source or auxiliary file that a symbolic link, a path or a
file: URL leads outside it is refused (unless --allow-outside), and WC-SOURCE-MISSING or
WC-SOURCE-INCOMPLETE says so, naming the path and where it leads.`,
	},
	{
		rules: []string{"WC-EMBED-CHECKSUM", "WC-EMBED-UNREADABLE", "WC-EMBED-MISMATCH", "WC-EMBED-DIGEST", "WC-EMBED-MISSING", "WC-EMBED-VERIFIED"},
		text: `The WC-EMBED-* rules check a file that carries its own web archive (webcap capture --warc W.warc.gz
--embed-warc: an embedded file with /AFRelationship /Source and the media type application/warc,
listed in the catalog's /AF and /Names /EmbeddedFiles). Every embedded file's /Params /Size and
/CheckSum (the MD5 of its bytes) are compared with what its stream holds, read once within 1 GiB (a
flate bomb stops there, WC-LIMIT): a difference is WC-EMBED-CHECKSUM, which is how one byte changed
inside the archive shows. Without --sources, the embedded WARC is the sources: every content set's
identifier (and /WCSHA256) is recomputed from its responses alone, no network needed, and its
records' digests are verified, by the WC-SOURCE-* rules; messages name the embedded WARC and the
record. Against sources given from outside, which may have changed since the capture, a mismatch is
a warning; against the archive the file declares as its own source, it is the file contradicting
itself, so WC-SOURCE-MISMATCH becomes WC-EMBED-MISMATCH and WC-SOURCE-DIGEST becomes
WC-EMBED-DIGEST, both errors, and a set whose source URLs have no response in the archive, or that
an update wrote after the archive was embedded (refresh or append without --embed-warc: its object
comes after the archive's in the file), is WC-EMBED-MISSING, a warning. WC-EMBED-VERIFIED says how
many content sets the archive verified ("N of M content sets verified against the embedded WARC
W.warc.gz"). An archive that cannot be read (a filter other than none or /FlateDecode, not a WARC
file, past the warc reader's limits) is WC-EMBED-UNREADABLE.`,
	},
	{
		rules: []string{"WC-PDF-XREF", "WC-PDF-OFFSET", "WC-PDF-LENGTH", "WC-PDF-UNREADABLE", "WC-PDF-RECOVERED"},
		text: `WC-PDF-* say a file is not well-formed, in JHOVE's sense: pdfcpu, which reads the file, repairs
what it can without a word (a cross-reference table rebuilt by scanning for N G obj, an object
found near a wrong offset, a stream read up to endstream past a wrong /Length), and another
reader may then see other objects. The reader checks the bytes against what was built: startxref
and every section through /Prev must be a whole cross-reference table or stream whose /W, /Size
and /Index locate something (WC-PDF-XREF; an appended stream with /W [0 0 0] is one), every
in-use entry's offset must begin N G obj (WC-PDF-OFFSET), every stream's /Length as written must
end where endstream follows, after an optional end-of-line (WC-PDF-LENGTH), and every listed
object must parse (WC-PDF-UNREADABLE: cut short, or nested deeper than the parser's bound). Each
finding names the object and the byte offset. The verdict, damaged or not, is qpdf --check's on
every crafted case and every real file (tests TestDamageAgreesWithQPDF,
TestRealWorldDamageAgreesWithQPDF). When the cross-reference data is lost, objects kept in
object streams that pdfcpu found are recovered from them, as poppler does (WC-PDF-RECOVERED,
once, with their number), so a reference to one resolves; a reference that still leads nowhere
is WC-DANGLING saying the object "cannot be located: the cross-reference data is damaged", not
that it does not exist. An object an entry locates wrongly (its offset holds no N G obj, or it
does not parse there) is looked for near that offset and then in the whole file, as qpdf does,
and read from there when found (WC-PDF-OFFSET says where); a reference to one that still cannot
be read is WC-DANGLING saying the cross-reference data puts it at its offset but it "cannot be
read there or near it" (pdfio.Unreadable, a kind of its own: webcap fix refuses to drop it). A
file pdfcpu cannot parse at all is reported as unreadable (exit 3), not audited. A /Prev chain
that leads back to a section already read (a section that is its own /Prev, two that point at
each other) is read as qpdf reads it, each section once, newest first, and is WC-PDF-XREF
(TestPrevLoopReadAsQPDF); webcap fix and build refuse to append to such a file, whose new section
would chain into the loop again (rewrite it first, e.g. qpdf in.pdf out.pdf). A stream is decoded
once however many objects use it, and no stream may decode to more than 64 MiB, nor all of a
file's to more than 512 MiB (pdfio.Options.MaxStreamDecode, MaxDecodeTotal): what needs a stream
past either is not read, never cut short, and is WC-LIMIT naming the stream and the limit
(pdfio.TooLarge; webcap fix refuses to drop it). A cross-reference stream may list no more
entries than the file has bytes (at least 65,536): more, inflated from a small file, are
refused, the table is rebuilt from the objects found, and that is WC-PDF-XREF. A
cross-reference stream whose data inflates to more than its entries need is read as its
entries only (pdfcpu would inflate it whole: 940 MB to read a 500 KB file whose stream
inflates to 500 MiB), and that is WC-PDF-XREF too (qpdf: "Cross-reference stream data has
the wrong size"; TestXRefStreamPaddingReadAsEntries).`,
	},
	{
		rules: []string{"WC-CERTIFIED", "WC-CERTIFIED-AFTER"},
		text: `WC-CERTIFIED notes a document certified with DocMDP (the catalog's /Perms /DocMDP signature; /P
1 no changes, 2 form filling and signing, 3 also annotations). Adding pages, content sets, name
trees or catalog entries is none of these, so build, append and refresh refuse to update such a
file unless --force. WC-CERTIFIED-AFTER is a file whose Web Capture structures (SpiderInfo, the
IDS or URLS tree, a content set) lie past the bytes the signature covers (its /ByteRange): they
were added after certification, which breaks it for any validator that checks DocMDP
permissions; the byte-range digest itself still verifies, so pdfsig alone does not show it.`,
	},
	{
		rules: []string{"WC-SEAL-FORMAT", "WC-SEAL-RANGE", "WC-SEAL-DIGEST", "WC-SEAL-UNTRUSTED", "WC-SEAL-TIME", "WC-SEAL-AFTER", "WC-SEAL-DOCMDP", "WC-SEAL-VERIFIED"},
		text: `WC-SEAL-* check each signature and document timestamp (package seal, audit/seals.go): the
signature dictionaries the catalog's /AcroForm /Fields reach (with /FT /Sig and a /V),
/Perms /DocMDP and /Perms /UR3 (a usage-rights signature, no field). The /ByteRange must be [0 a b c] with a..b exactly the dictionary's own
/Contents hex string, angle brackets included (found in the dictionary's bytes, not trusted
from the range), and b+c the end of a revision (WC-SEAL-RANGE); the digest of the covered bytes
must be the CMS message digest (or, adbe.pkcs7.sha1, its content; adbe.x509.rsa_sha1, the RSA
signature of their SHA-1 with /Cert) and the signature value must verify, and a document
timestamp's (ETSI.RFC3161) token imprint must be their digest, a signature timestamp's the
digest of the signature value (WC-SEAL-DIGEST). A chain that does not reach audit --trust
CA.pem (the CMS's and the /DSS's certificates serve as intermediates) is a warning, not a
broken seal (WC-SEAL-UNTRUSTED). WC-SEAL-AFTER names what an update after the last seal changed
beyond what adding a DSS, a document timestamp or a signature writes (ISO 32000-2 Table 257):
the objects with what each is (a page, a page's content stream, a content set), the pages and
the content sets; that is how a shadow attack or a silent edit shows.
An update may change the AcroForm only to add signature fields: one that takes a field out of
/AcroForm /Fields (or adds another kind of field) is named, and a seal whose field an update
took out (found through an earlier revision's /Fields, read as that revision left it) is a
WC-SEAL-AFTER of its own: a reader no longer shows it. WC-SEAL-DOCMDP checks a
certification's /P against the updates after it; WC-SEAL-TIME a seal's time against the /TS of
the sets it covers and against later seals (a claimed time, from the writer's clock, may be up
to 10 minutes ahead; two tokens' times are compared as they are). Each seal that verifies is
one WC-SEAL-VERIFIED (kind, signer, time, trusted or not): webcap info lists them too. The
oracle: openssl cms -verify -binary -inform DER -content <ByteRange bytes> and pdfsig agree
with the verdict on the tamper tests (seal/verify_test.go).`,
	}, {
		rules: []string{"WC-SE-ARTICLE", "WC-ARTICLE-SETS", "WC-STRUCTPARENTS-SHARED", "WC-PARENTTREE-KEY", "WC-OUTLINE-ENTRY", "WC-STRUCT-ENTRY"},
		text: `WC-SE-ARTICLE, WC-ARTICLE-SETS, WC-STRUCTPARENTS-SHARED and WC-PARENTTREE-KEY check the tags
Web Capture writes (the 25 real files that have them are alike): each page set is one /S
/Article /C /SpdrArt element whose kids are the marked content of the set's pages, each page's
/StructParents is its own key in the /ParentTree, and the outline has one item per page set
whose /SE is that Article (a tagged bookmark). A tagged bookmark's Article is read from the
element /SE names, so it passes when the Article hangs under a StructTreeRoot the catalog does
not reference (pdfparser__Issue621.pdf); it must have marked content on a page of the page set
its destination goes to (on the page itself when the page is in no set). Not flagged, as real
files do it: a page set with no Article, no bookmark and no /StructParents
(pdfium__feature_linearized_loading.pdf's second set, with /ParentTreeNextKey 1 for 2 pages),
Article kids in no page order, stale /ParentTree keys no page uses, a /ParentTree with /Kids.
No viewer needs the Article to be right to show a page, and the specification asks it of no
file, so the first two are warnings; a shared key or a key that does not resolve maps a page's
marked content to another page's elements or to none, a wrong answer for every reader of the
tags, so they are errors. WC-OUTLINE-ENTRY and WC-STRUCT-ENTRY are the reader's type errors in
the outline and the structure tree.`,
	},
}
