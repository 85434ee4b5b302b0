package pdfio

import (
	"strconv"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// A Document is what a PDF file says about Web Capture.
type Document struct {
	File      string
	Version   string           // the header's version ("1.7")
	Catalog   string           // the catalog's /Version, if any
	Encrypted bool             // the file is encrypted (and was opened)
	Info      *webcapture.Info // the catalog's /SpiderInfo; nil if absent
	IDS       *Tree            // /Names /IDS; nil if absent
	URLS      *Tree            // /Names /URLS; nil if absent
	Sets      []*ContentSet    // every content set: the trees' (IDS, then URLS order), then orphans
	Pages     []*Page          // the page tree's pages, in order
	Images    []*Image         // every image XObject, by object number
	Outline   []*OutlineItem   // the catalog's /Outlines items (outline.go); nil without /Outlines, empty when it has none
	Articles  []*Article       // the structure tree's SpdrArt Articles, in tree order (structure.go)
	// Attachments are the embedded files the catalog's /AF or /Names
	// /EmbeddedFiles lists (attachments.go), /AF's first.
	Attachments []*AttachedFile
	// ParentTree is the structure tree's /ParentTree (structure.go); nil
	// without a structure tree or without a /ParentTree.
	ParentTree *ParentTree
	Defects    []Defect // everything malformed met while reading

	// Read by readUse (usage.go), for the auditor.
	ImageUseKnown  bool                  // every page's resources were walked within the bounds: Image.Pages is complete
	PriorActions   []*PriorAction        // every link annotation's /PA, in page and /Annots order
	IDForms        []*Form               // Form XObjects that carry /ID, by object number
	SourceCommands []*webcapture.Command // commands a source information's /C reaches and SpiderInfo /C does not list
	EmptyAliasC    []Place               // URL alias /C arrays that hold no chain, and chains that hold no URL

	// Damage is what the file needed repaired to be read, or could not be
	// read at all: a file with any is not well-formed.
	Damage []Damage
	// Certification is the document's certification signature (DocMDP),
	// or nil: an update must respect its permissions.
	Certification *Certification
	// Seals are the signature dictionaries (seals.go): every form field's
	// signature, then /Perms /DocMDP when no field has it.
	Seals []*Seal
	// Revisions are the file's incremental sections in file order
	// (revisions.go).
	Revisions []Revision
	// DSS is the catalog's /DSS, or nil.
	DSS *DocumentDSS

	pageByRef *webcapture.RefIndex[int32] // the page tree's pages' numbers by object (indexPages)
}

// A Tree is a name tree (IDS or URLS) as the file holds it.
type Tree struct {
	Name    string         // "IDS" or "URLS"
	Root    webcapture.Ref // where the root is; zero if direct
	Entries []*Entry       // every well-formed entry, in file order
	Nodes   int            // nodes walked
	Depth   int            // deepest level (1 = the root alone)
	Empty   bool           // the root has neither /Kids nor /Names (Acrobat's << >> residue)
	// Unreadable are the nodes (or their /Kids, /Names, or an indirect
	// key) that the cross-reference data lists but that cannot be read,
	// even looked for near their offset: the keys under them are not in
	// Entries, and how many there are is not known.
	Unreadable []webcapture.Ref
}

// An Entry is one key and value of a name tree.
type Entry struct {
	Key    string         // the key's bytes, exactly
	KeyRef webcapture.Ref // the key's object when it is an indirect string
	Sets   []*ContentSet  // the value: one content set, or the elements of an array
	Node   webcapture.Ref // the leaf that holds the entry

	nodePath string // the leaf's path
	// index is the key's index in the leaf's /Names (an int32 beside
	// the two flags: an Entry is 96 bytes, not 112, and a tree of
	// 100,000 keys 1.6 MB less).
	index int32

	Array bool // the value was an array
	// Unreadable: the value, or an element of it, is an object the
	// cross-reference data lists but that cannot be read (not one that
	// does not exist): Sets lacks it.
	Unreadable bool
}

// Path returns where the entry's key is: "IDS/Kids[1]/Names[4]".
func (e *Entry) Path() string { return e.nodePath + "/Names[" + strconv.Itoa(int(e.index)) + "]" }

// valuePath returns where the entry's value is.
func (e *Entry) valuePath() string {
	return e.nodePath + "/Names[" + strconv.Itoa(int(e.index)+1) + "]"
}

// A ContentSet is a content set with where the file reaches it from.
type ContentSet struct {
	*webcapture.ContentSet
	Path     string   // where it was first reached
	IDSKeys  []string // IDS keys whose value holds it
	URLSKeys []string // URLS keys whose value holds it
	Orphan   bool     // no tree reaches it: found by scanning the objects
	// si is the dictionary's /SI value, or siDict what sourceExtras reads
	// of a direct one, kept by a read that let go of the dictionary
	// (repackSet) until sourceExtras reads it; siKept: it was.
	si     types.Object
	siDict *sourceUse
	siKept bool
	// planned: Result's reader took it from the model it was written
	// from (plannedSet), which says what sourceExtras would read.
	planned bool
}

// A Page is a page of the page tree.
type Page struct {
	Number int               // 1-based
	Ref    webcapture.Ref    // the page object
	ID     *webcapture.RawID // /ID: the parent content set's identifier
	IDRef  webcapture.Ref    // the /ID string's object when indirect
	PZ     *float64          // /PZ: preferred zoom
	// StructParents is /StructParents: the page's key in the structure
	// tree's /ParentTree; nil if absent.
	StructParents *int64
	// use is what readUse reads of the page's dictionary, kept by a read
	// that let go of it (repack) until readUse reads it.
	use *pageUse
}

// An Image is an image XObject.
type Image struct {
	Ref   webcapture.Ref
	ID    *webcapture.RawID // /ID: the parent content set's identifier
	IDRef webcapture.Ref    // the /ID string's object when indirect

	// Read by readUse (usage.go): the pages that use the image.
	Direct []int    // the pages whose resources (own or inherited) name it
	Pages  []int    // the pages that use it at all: directly, or through Via
	Via    []string // how pages that do not name it reach it: "form", "pattern", "annotation", "mask", ...
}

// PageOf returns the page that ref is, or nil.
func (d *Document) PageOf(ref webcapture.Ref) *Page {
	if n := d.PageNumber(ref); n > 0 && n <= len(d.Pages) {
		return d.Pages[n-1]
	}
	return nil
}

// PageNumber returns the number of the page that ref is, or 0 if it is not
// a page of the page tree.
func (d *Document) PageNumber(ref webcapture.Ref) int {
	n, _ := d.pageByRef.Get(ref)
	return int(n)
}

// PageNumbers returns the page number of each of the set's O entries (0
// for an entry that is not a page of the page tree).
func (d *Document) PageNumbers(cs *ContentSet) []int {
	out := make([]int, len(cs.Objects))
	for i, r := range cs.Objects {
		out[i] = d.PageNumber(r)
	}
	return out
}

// A Defect is something malformed the reader met: where it is, what kind,
// and a message that says what was found and what was wanted.
type Defect struct {
	Object  webcapture.Ref // the object it is in; zero if direct (see Path)
	Path    string         // where, from the catalog: "Names/IDS/Kids[0]/Names[3]"
	Kind    DefectKind
	Message string
}

// DefectKind names a kind of defect.
type DefectKind string

// The kinds of defect the reader records.
const (
	Dangling       DefectKind = "dangling"         // a reference to an object that does not exist
	Unreadable     DefectKind = "unreadable"       // a reference to an object the cross-reference data lists, which cannot be read
	Cycle          DefectKind = "cycle"            // a reference chain or tree that loops
	TooDeep        DefectKind = "too-deep"         // a tree deeper than Options.MaxTreeDepth
	TooMany        DefectKind = "too-many"         // a tree with more nodes than Options.MaxTreeNodes
	TooLarge       DefectKind = "too-large"        // an object in, or a value of, a stream that decodes past Options.MaxStreamDecode or MaxDecodeTotal: not read
	TreeNode       DefectKind = "tree-node"        // a malformed node: no /Kids or /Names, both, or not a dictionary
	TreeOddNames   DefectKind = "tree-odd-names"   // a /Names array of odd length
	TreeKeyType    DefectKind = "tree-key-type"    // a key that is not a string
	TreeUnsorted   DefectKind = "tree-unsorted"    // a key less than the key before it
	TreeDuplicate  DefectKind = "tree-duplicate"   // a key equal to the key before it
	TreeLimits     DefectKind = "tree-limits"      // /Limits missing, malformed, or not the node's first and last keys
	TreeRootLimits DefectKind = "tree-root-limits" // /Limits on a root, which has none
	TreeShared     DefectKind = "tree-shared"      // a node reached twice
	TreeValue      DefectKind = "tree-value"       // a value that is not a content set or an array of them
	WrongType      DefectKind = "wrong-type"       // a key whose value has a type the specification does not allow
	BadValue       DefectKind = "bad-value"        // a value of the right type that cannot be read (a date, a flag field)
	SharedSettings DefectKind = "shared-settings"  // an object under command settings that something else refers to
	OutlineEntry   DefectKind = "outline-entry"    // a malformed outline: an item or a key of one (/Title, /Dest, /A, /SE) of the wrong type
	StructEntry    DefectKind = "struct-entry"     // a malformed structure tree: an element, a kid or a key of one (/S, /C, /Pg) of the wrong type
)
