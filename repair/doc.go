// Package repair plans and writes the repairs of Web Capture structures
// that are unambiguous — what "webcap fix" does. It never guesses: anything
// that could be repaired more than one way is reported and left as it is.
//
// Repairs, each tied to the audit rules it answers:
//
//   - The IDS and URLS trees are rebuilt from their readable entries, as
//     balanced trees with correct /Limits, keys sorted and unique
//     (WC-TREE-ORDER, WC-TREE-DUPLICATE, WC-TREE-LIMITS, WC-TREE-ROOT-LIMITS,
//     WC-TREE-SHARED, WC-TREE-NODE for an odd /Names or a key that is not a
//     string, WC-DANGLING for a kid that does not exist, WC-TREE-VALUE for a
//     value that is not a content set — the entries such damage already lost
//     stay lost, and are listed). An object the cross-reference data lists
//     but that cannot be read is not one that does not exist: pdfio looks
//     for it near its offset as qpdf does, and when it still cannot be read
//     the tree is left alone and the plan refused (Plan.Refused, Plan.Losses,
//     which count what would be lost), unless Options.AllowLoss drops it.
//   - URLS keys are canonicalized (WC-URLS-CANONICAL, WC-URLS-NONASCII),
//     unless that makes them collide (below).
//   - IDS keys that differ from their set's /ID are replaced by the /ID
//     (WC-IDS-KEY).
//   - A key written twice is one key; its value becomes an array of the
//     sets of both (arrays are legal values). IDS keys that become equal
//     are merged the same way: an IDS key is its sets' /ID, and sets with
//     the same /ID belong under one key.
//   - A page or image XObject in exactly one set's /O that has no /ID gets
//     the set's /ID (WC-MEMBER-ID).
//
// # URLS keys that collide
//
// A URLS key is never rewritten to a key that another key of the tree
// already is, or canonicalizes to, when the two lead to different content
// sets: lookups of the two URLs give different answers today, and one key
// would give one answer for both. Which answer is right is not known, so
// every key of such a group stays as it is written, and the group is
// reported as a [Collision] (Plan.Collisions); "webcap fix" exits 1 while
// one remains. Example: "HTTP://Example.com/a" (set 5 0 R) and
// "http://example.com:80/a" (set 6 0 R) both canonicalize to
// "http://example.com/a".
//
// Keys that canonicalize to one key and lead to the same content sets (the
// same objects, in any order) are merged into that one key: every lookup
// gives the answer it gave before, so nothing is decided. Sets that only
// overlap (one key leads to 5 0 R, the other to 5 0 R and 6 0 R) collide.
//
// Left alone, reported: trees holding direct content-set values (they have
// no object to refer to), /R of the wrong shape (which count belongs to
// which object is not known), and members whose /ID differs from their
// set's, or that are in several sets (which one is right is not known).
//
// # Parsing once
//
// Plan.Apply writes the repairs as an incremental update of the bytes the
// document was read from, which it parses again. "webcap fix" parses them
// once: pdfio.OpenUpdate, its Document for NewPlan, Plan.ApplyTo that
// update, and Update.Result to read back (and audit) what it wrote, from
// the same parse and the appended objects.
package repair
