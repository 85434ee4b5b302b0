package pdfio

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// Each Web Capture dictionary is described once, by a table of its keys
// (PDF 1.7 Tables 10.37-10.45; ISO 32000-1 Tables 350-359): the key, whether
// it is required, the PDF version that defines it, and how the model's
// field is read from it and written to it. The reader and the writer both
// go through the tables, so a key cannot be read one way and written
// another.

// A key is one key of a dictionary whose model is M.
type key[M any] struct {
	name     string
	required bool
	since    string
	// read sets the field from the dictionary d (the object ref, reached
	// at path), recording a defect for a value of the wrong type.
	read func(r *reader, m *M, k string, d types.Dict, ref webcapture.Ref, path string)
	// write returns the field's value in PDF form; nil when it is absent.
	write func(w *writer, m *M) (types.Object, error)
}

// readKeys reads every key of a table into m.
func readKeys[M any](r *reader, table []key[M], m *M, d types.Dict, ref webcapture.Ref, path string) {
	for _, k := range table {
		k.read(r, m, k.name, d, ref, path)
	}
}

// writer writes model values in PDF form, for an update.
type writer struct{ u *Update }

// ErrMissingKey: a model lacks a key its dictionary requires.
var ErrMissingKey = errors.New("a required key is missing")

// writeKeys makes m's dictionary. A required key without a value is an
// error wrapping ErrMissingKey.
func writeKeys[M any](w *writer, what string, table []key[M], m *M) (types.Dict, error) {
	d := types.Dict{}
	err := eachKeyValue(w, what, table, m, func(i int, o types.Object) { d[table[i].name] = o })
	if err != nil {
		return nil, err
	}
	return d, nil
}

// eachKeyValue gives f the value of each key of table that m has (i its
// index in table), in the table's order: writeKeys' dictionary, without
// the map (AddContentSet). The first error, in the table's order, is
// writeKeys' error.
func eachKeyValue[M any](w *writer, what string, table []key[M], m *M, f func(i int, o types.Object)) error {
	for i, k := range table {
		o, err := k.write(w, m)
		if err != nil {
			return fmt.Errorf("pdfio: %s /%s: %w", what, k.name, err)
		}
		if o == nil {
			if k.required {
				return fmt.Errorf("pdfio: %s /%s: %w", what, k.name, ErrMissingKey)
			}
			continue
		}
		f(i, o)
	}
	return nil
}

// Keys of the common kinds, each from an accessor of the model's field.

// stringKey is an ASCII or byte string held as a Go string; "" is absent.
func stringKey[M any](name string, required bool, since string, f func(*M) *string) key[M] {
	return key[M]{name, required, since,
		func(r *reader, m *M, k string, d types.Dict, ref webcapture.Ref, path string) {
			if s, ok := r.str(ref, d, k, path); ok {
				*f(m) = s
			}
		},
		func(_ *writer, m *M) (types.Object, error) {
			if s := *f(m); s != "" {
				return literalString(s), nil
			}
			return nil, nil
		}}
}

// optKey is an optional key held as a pointer (nil: absent): read takes
// its value from the dictionary (false: absent or of the wrong type, which
// read has recorded), write gives its PDF form.
func optKey[M, T any](name, since string, field func(*M) **T,
	read func(r *reader, ref webcapture.Ref, d types.Dict, k, path string) (T, bool), write func(T) types.Object) key[M] {
	return key[M]{name, false, since,
		func(r *reader, m *M, k string, d types.Dict, ref webcapture.Ref, path string) {
			if v, ok := read(r, ref, d, k, path); ok {
				*field(m) = &v
			}
		},
		func(_ *writer, m *M) (types.Object, error) {
			if v := *field(m); v != nil {
				return write(*v), nil
			}
			return nil, nil
		}}
}

// idKey is the content set's required ID, written in hex: optKey's,
// marked required.
var idKey = func() key[webcapture.ContentSet] {
	k := optKey("ID", "1.3", func(m *webcapture.ContentSet) **webcapture.RawID { return &m.ID }, keyID, hexOf[webcapture.RawID])
	k.required = true
	return k
}()

// The readers and writers of optKey's kinds.

func keyString(r *reader, ref webcapture.Ref, d types.Dict, k, path string) (string, bool) {
	return r.str(ref, d, k, path)
}

func keyText(r *reader, ref webcapture.Ref, d types.Dict, k, path string) (webcapture.Text, bool) {
	s, ok := r.str(ref, d, k, path)
	return webcapture.Text(s), ok
}

func keyDate(r *reader, ref webcapture.Ref, d types.Dict, k, path string) (webcapture.Date, bool) {
	if dt := r.date(ref, d, k, path); dt != nil {
		return *dt, true
	}
	return webcapture.Date{}, false
}

func keyID(r *reader, ref webcapture.Ref, d types.Dict, k, path string) (webcapture.RawID, bool) {
	s, ok := r.str(ref, d, k, path)
	return webcapture.RawID(s), ok
}

func keyInt(r *reader, ref webcapture.Ref, d types.Dict, k, path string) (int64, bool) {
	return r.integer(ref, d, k, path)
}

func literal[T ~string](v T) types.Object     { return literalString(string(v)) }
func hexOf[T ~string](v T) types.Object       { return hexString(string(v)) }
func dateText(v webcapture.Date) types.Object { return literalString(v.Raw) }
func integerOf(v int64) types.Object          { return types.Integer(v) }

// The tables.

// infoKeys describe the Web Capture information dictionary (/SpiderInfo,
// PDF 1.7 Table 10.37). Its commands are written first (AddCommand): C
// holds their references.
var infoKeys = []key[webcapture.Info]{
	{"V", true, "1.3",
		func(r *reader, m *webcapture.Info, k string, d types.Dict, ref webcapture.Ref, path string) {
			if n, ok := r.number(ref, d, k, path); ok {
				m.Version = &n
			}
		},
		func(_ *writer, m *webcapture.Info) (types.Object, error) {
			switch {
			case m.Version == nil:
				return nil, nil
			case m.Version.Integer:
				return types.Integer(int(m.Version.Value)), nil
			}
			return types.Float(m.Version.Value), nil
		}},
	{"C", false, "1.3",
		func(r *reader, m *webcapture.Info, k string, d types.Dict, ref webcapture.Ref, path string) {
			a, ok := r.array(ref, d, k, path, "an array of command dictionaries")
			if !ok {
				return
			}
			eachOf(r, a, path+"/"+k, WrongType, "a command dictionary", func(cd types.Dict, cref webcapture.Ref, cpath string) {
				if cref.IsZero() {
					r.defect(ref, cpath, WrongType, "%s is a direct dictionary, want an indirect reference", cpath)
				}
				c := &webcapture.Command{Ref: cref}
				readKeys(r, commandKeys, c, cd, cref, cpath)
				m.Commands = append(m.Commands, c)
			})
		},
		func(_ *writer, m *webcapture.Info) (types.Object, error) {
			if m.Commands == nil {
				return nil, nil
			}
			a := make(types.Array, len(m.Commands))
			for i, c := range m.Commands {
				if c.Ref.IsZero() {
					return nil, fmt.Errorf("command %d (%s) has no object: write it first (AddCommand)", i, c.URL)
				}
				a[i] = indirect(c.Ref)
			}
			return a, nil
		}},
}

// commandKeys describe a command dictionary (PDF 1.7 Tables 10.43-10.44).
var commandKeys = []key[webcapture.Command]{
	stringKey("URL", true, "1.3", func(c *webcapture.Command) *string { return &c.URL }),
	optKey("L", "1.3", func(c *webcapture.Command) **int64 { return &c.Levels }, keyInt, integerOf),
	{"F", false, "1.3",
		func(r *reader, c *webcapture.Command, k string, d types.Dict, ref webcapture.Ref, path string) {
			if n, ok := r.integer(ref, d, k, path); ok {
				if n < 0 || n > 1<<32-1 {
					r.defect(ref, path+"/"+k, BadValue, "F is %d, outside an unsigned 32-bit field", n)
				}
				f := webcapture.Flags(uint32(n))
				c.Flags = &f
			}
		},
		func(_ *writer, c *webcapture.Command) (types.Object, error) {
			if c.Flags == nil {
				return nil, nil
			}
			return types.Integer(int64(*c.Flags)), nil
		}},
	{"P", false, "1.3",
		func(r *reader, c *webcapture.Command, k string, d types.Dict, ref webcapture.Ref, path string) {
			raw, present := d[k]
			if !present {
				return
			}
			v, sref, ok := r.resolveKey(raw, path, k)
			if !ok || v == nil {
				return
			}
			switch o := v.(type) {
			case types.StringLiteral, types.HexLiteral:
				s, _ := rawString(o)
				b := []byte(s)
				c.PostData = &b
			case types.StreamDict:
				// Decoded once, whichever command asks: commands that
				// post the same stream share its bytes (decode.go).
				c.PostStream, c.PostRef = true, sref
				b, err := r.dec.stream(sref.Num, &o)
				switch {
				case errors.Is(err, ErrDecodeLimit):
					// Not read, rather than cut short: the command is a
					// POST whose data is not known (PostData nil).
					r.defect(sref, path+"/"+k, TooLarge, "P is stream %s, which is not read: %v", sref, err)
					return
				case err != nil:
					r.defect(ref, path+"/"+k, BadValue, "P is a stream that does not decode: %v", err)
					b = o.Raw
				}
				c.PostData = &b
			default:
				r.wrong(ref, path, k, v, "a string or a stream")
			}
		},
		func(w *writer, c *webcapture.Command) (types.Object, error) {
			switch {
			case c.PostData == nil:
				return nil, nil
			case c.PostStream:
				// A stream, for large data (PDF 1.7 Table 10.43): its own
				// object, as streams are.
				ref := w.u.objs.add(types.StreamDict{Dict: types.Dict{}, Raw: *c.PostData})
				c.PostRef = refOf(ref)
				return ref, nil
			}
			return literalString(string(*c.PostData)), nil
		}},
	optKey("CT", "1.3", func(c *webcapture.Command) **string { return &c.ContentType }, keyString, literal[string]),
	optKey("H", "1.3", func(c *webcapture.Command) **string { return &c.Headers }, keyString, literal[string]),
	{"S", false, "1.3",
		func(r *reader, c *webcapture.Command, k string, d types.Dict, ref webcapture.Ref, path string) {
			v, ok := r.get(d, k, path)
			if !ok {
				return
			}
			sd, isDict := v.(types.Dict)
			if !isDict {
				r.wrong(ref, path, k, v, "a command settings dictionary")
				return
			}
			s := &webcapture.Settings{Ref: refIn(d[k])}
			r.selfContained(sd, s.Ref, path+"/"+k)
			readKeys(r, settingsKeys, s, sd, s.Ref, path+"/"+k)
			c.Settings = s
		},
		func(w *writer, c *webcapture.Command) (types.Object, error) {
			if c.Settings == nil {
				return nil, nil
			}
			return writeKeys(w, "command settings", settingsKeys, c.Settings)
		}},
}

// settingsKeys describe a command settings dictionary (PDF 1.7 Table
// 10.45): free-form values, for every engine (G) and per engine (C).
var settingsKeys = []key[webcapture.Settings]{
	{"G", false, "1.3",
		func(r *reader, s *webcapture.Settings, k string, d types.Dict, ref webcapture.Ref, path string) {
			v, ok := r.get(d, k, path)
			if !ok {
				return
			}
			if g, isDict := v.(types.Dict); isDict {
				s.Global, _ = r.object(g, path+"/"+k).(webcapture.Dict)
			} else {
				r.wrong(ref, path, k, v, "a dictionary")
			}
		},
		func(_ *writer, s *webcapture.Settings) (types.Object, error) {
			if s.Global == nil {
				return nil, nil
			}
			return fromModel(s.Global, 0)
		}},
	{"C", false, "1.3",
		func(r *reader, s *webcapture.Settings, k string, d types.Dict, ref webcapture.Ref, path string) {
			v, ok := r.get(d, k, path)
			if !ok {
				return
			}
			c, isDict := v.(types.Dict)
			if !isDict {
				r.wrong(ref, path, k, v, "a dictionary keyed by engine names")
				return
			}
			names := make([]string, 0, len(c))
			for n := range c {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				e := webcapture.EngineSettings{Key: webcapture.Name(strings.Clone(n))}
				e.Engine, e.Err = webcapture.ParseEngineName(n)
				e.Settings = r.object(c[n], path+"/"+k+"/"+n)
				s.Engines = append(s.Engines, e)
			}
		},
		func(_ *writer, s *webcapture.Settings) (types.Object, error) {
			if s.Engines == nil {
				return nil, nil
			}
			c := types.Dict{}
			for _, e := range s.Engines {
				if _, err := webcapture.ParseEngineName(string(e.Key)); err != nil {
					return nil, err
				}
				v, err := fromModel(e.Settings, 0)
				if err != nil {
					return nil, err
				}
				c[string(e.Key)] = v
			}
			return c, nil
		}},
}

// contentSetKeys describe a content set (PDF 1.7 Tables 10.38-10.40): the
// common keys, then the page set's (T, TID) and the image set's (R).
var contentSetKeys = []key[webcapture.ContentSet]{
	{"Type", false, "1.3",
		func(r *reader, m *webcapture.ContentSet, k string, d types.Dict, ref webcapture.Ref, path string) {
			if t, ok := r.name(ref, d, k, path); ok {
				n := webcapture.Name(t)
				m.Type = &n
			}
		},
		func(_ *writer, m *webcapture.ContentSet) (types.Object, error) {
			if m.Type == nil {
				return nil, nil
			}
			return types.Name(*m.Type), nil
		}},
	{"S", true, "1.3",
		func(r *reader, m *webcapture.ContentSet, k string, d types.Dict, ref webcapture.Ref, path string) {
			if s, ok := r.name(ref, d, k, path); ok {
				m.Subtype = webcapture.Subtype(s)
			}
		},
		func(_ *writer, m *webcapture.ContentSet) (types.Object, error) {
			if m.Subtype == "" {
				return nil, nil
			}
			return types.Name(m.Subtype), nil
		}},
	idKey,
	{"O", true, "1.3",
		func(r *reader, m *webcapture.ContentSet, k string, d types.Dict, ref webcapture.Ref, path string) {
			a, ok := r.array(ref, d, k, path, "an array")
			if !ok {
				return
			}
			m.Objects = make([]webcapture.Ref, 0, len(a)) // present, even if empty
			for i, el := range a {
				ir, isRef := el.(types.IndirectRef)
				if !isRef {
					r.defect(ref, fmt.Sprintf("%s/O[%d]", path, i), WrongType, "O[%d] is %s, want an indirect reference", i, typeName(el))
					continue
				}
				m.Objects = append(m.Objects, refOf(ir))
			}
		},
		func(_ *writer, m *webcapture.ContentSet) (types.Object, error) {
			if m.Objects == nil {
				return nil, nil
			}
			a := make(types.Array, len(m.Objects))
			for i, o := range m.Objects {
				a[i] = indirect(o)
			}
			return a, nil
		}},
	{"SI", true, "1.3",
		func(r *reader, m *webcapture.ContentSet, k string, d types.Dict, ref webcapture.Ref, path string) {
			v, ok := r.get(d, k, path)
			if !ok {
				return
			}
			switch si := v.(type) {
			case types.Dict:
				m.Sources = append(m.Sources, r.sourceInfo(si, refIn(d[k]), path+"/"+k))
			case types.Array:
				m.SourceArray = true
				eachOf(r, si, path+"/"+k, WrongType, "a source information dictionary", func(sd types.Dict, sref webcapture.Ref, spath string) {
					m.Sources = append(m.Sources, r.sourceInfo(sd, sref, spath))
				})
			default:
				r.wrong(ref, path, k, v, "a dictionary or an array")
			}
		},
		func(w *writer, m *webcapture.ContentSet) (types.Object, error) {
			if m.Sources == nil {
				return nil, nil
			}
			// Source information is written direct (ISO 32000-1 §14.10.5.1:
			// its structure is never shared).
			a := make(types.Array, len(m.Sources))
			for i, si := range m.Sources {
				d, err := writeKeys(w, "source information", sourceInfoKeys, si)
				if err != nil {
					return nil, err
				}
				a[i] = d
			}
			if len(a) == 1 && !m.SourceArray {
				return a[0], nil
			}
			return a, nil
		}},
	optKey("CT", "1.3", func(m *webcapture.ContentSet) **string { return &m.ContentType }, keyString, literal[string]),
	optKey("TS", "1.3", func(m *webcapture.ContentSet) **webcapture.Date { return &m.Created }, keyDate, dateText),
	optKey("T", "1.3", func(m *webcapture.ContentSet) **webcapture.Text { return &m.Title }, keyText, literal[webcapture.Text]),
	optKey("TID", "1.3", func(m *webcapture.ContentSet) **webcapture.RawID { return &m.TextID }, keyID, hexOf[webcapture.RawID]),
	{"R", false, "1.3",
		// An integer, or an array of integers (Acrobat 5.0 and 8.0 write
		// the elements as indirect integer objects); required of image
		// sets (the auditor says so, a page set has none).
		func(r *reader, m *webcapture.ContentSet, k string, d types.Dict, ref webcapture.Ref, path string) {
			v, ok := r.get(d, k, path)
			if !ok {
				return
			}
			switch o := v.(type) {
			case types.Integer:
				m.RefCounts = []int64{int64(o)}
			case types.Array:
				m.RefArray = true
				m.RefCounts = []int64{}
				eachOf(r, o, path+"/"+k, WrongType, "an integer", func(n types.Integer, _ webcapture.Ref, _ string) {
					m.RefCounts = append(m.RefCounts, int64(n))
				})
			default:
				r.wrong(ref, path, k, v, "an integer or an array of integers")
			}
		},
		func(_ *writer, m *webcapture.ContentSet) (types.Object, error) {
			if m.RefCounts == nil {
				return nil, nil
			}
			if len(m.RefCounts) == 1 && !m.RefArray {
				return types.Integer(m.RefCounts[0]), nil // one object: an integer (ISO 32000-1 Table 354)
			}
			a := make(types.Array, len(m.RefCounts))
			for i, n := range m.RefCounts {
				a[i] = types.Integer(n)
			}
			return a, nil
		}},
}

// sourceInfoKeys describe a source information dictionary (PDF 1.7 Table
// 10.41), and webcap's /WCSHA256.
var sourceInfoKeys = []key[webcapture.SourceInfo]{
	{"AU", true, "1.3",
		func(r *reader, si *webcapture.SourceInfo, k string, d types.Dict, ref webcapture.Ref, path string) {
			v, ok := r.get(d, k, path)
			if !ok {
				return
			}
			switch o := v.(type) {
			case types.StringLiteral, types.HexLiteral:
				si.URLs.URL, _ = rawString(o)
			case types.Dict:
				a := &si.URLs
				a.Ref, a.Alias = refIn(d[k]), true
				readKeys(r, aliasKeys, a, o, a.Ref, path+"/"+k)
			default:
				r.wrong(ref, path, k, v, "a string or a URL alias dictionary")
			}
		},
		func(w *writer, si *webcapture.SourceInfo) (types.Object, error) {
			a := &si.URLs
			if !a.Alias && len(a.Chains) == 0 {
				if a.URL == "" {
					return nil, nil
				}
				return literalString(a.URL), nil
			}
			return writeKeys(w, "URL alias", aliasKeys, a)
		}},
	optKey("TS", "1.3", func(si *webcapture.SourceInfo) **webcapture.Date { return &si.Updated }, keyDate, dateText),
	optKey("E", "1.3", func(si *webcapture.SourceInfo) **webcapture.Date { return &si.Expires }, keyDate, dateText),
	optKey("S", "1.3", func(si *webcapture.SourceInfo) **int64 { return &si.Submission }, keyInt, integerOf),
	{"C", false, "1.3",
		func(r *reader, si *webcapture.SourceInfo, k string, d types.Dict, ref webcapture.Ref, path string) {
			c, ok := d[k]
			if !ok {
				return
			}
			cref := refIn(c)
			si.Command = &cref
			if cref.IsZero() {
				r.defect(ref, path+"/"+k, WrongType, "C is %s, want an indirect reference to a command dictionary", typeName(c))
			} else if o, _, ok := r.resolve(c, path+"/"+k); ok {
				if _, isDict := o.(types.Dict); !isDict {
					r.wrong(ref, path, k, o, "a command dictionary")
				}
			}
		},
		func(_ *writer, si *webcapture.SourceInfo) (types.Object, error) {
			switch {
			case si.Command == nil:
				return nil, nil
			case si.Command.IsZero():
				return nil, errors.New("the command has no object: it must be an indirect reference")
			}
			return indirect(*si.Command), nil
		}},
	// webcap's own key, not in ISO 32000 (docs/sha256.md): the SHA-256 of
	// the source's bytes, a byte string written in hex like /ID.
	optKey("WCSHA256", "1.3", func(si *webcapture.SourceInfo) **webcapture.RawID { return &si.SHA256 }, keyID, hexOf[webcapture.RawID]),
}

// aliasKeys describe a URL alias dictionary (PDF 1.7 Table 10.42): U, and C
// as an array of arrays of strings (the strings are often indirect objects
// shared between chains).
var aliasKeys = []key[webcapture.AliasedURLs]{
	stringKey("U", true, "1.3", func(a *webcapture.AliasedURLs) *string { return &a.URL }),
	{"C", false, "1.3",
		func(r *reader, a *webcapture.AliasedURLs, k string, d types.Dict, ref webcapture.Ref, path string) {
			chains, ok := r.array(ref, d, k, path, "an array of arrays of strings")
			if !ok {
				return
			}
			eachOf(r, chains, path+"/"+k, WrongType, "an array of strings", func(chain types.Array, _ webcapture.Ref, cpath string) {
				var urls []string
				for j, u := range chain {
					upath := fmt.Sprintf("%s[%d]", cpath, j)
					uo, uref, ok := r.resolve(u, upath)
					if !ok {
						continue
					}
					s, isStr := rawString(uo)
					if !isStr {
						r.defect(uref, upath, WrongType, "%s is %s, want a string", upath, typeName(uo))
						continue
					}
					urls = append(urls, s)
				}
				a.Chains = append(a.Chains, urls)
			})
		},
		func(_ *writer, a *webcapture.AliasedURLs) (types.Object, error) {
			if a.Chains == nil {
				return nil, nil
			}
			out := make(types.Array, len(a.Chains))
			for i, chain := range a.Chains {
				c := make(types.Array, len(chain))
				for j, u := range chain {
					c[j] = literalString(u)
				}
				out[i] = c
			}
			return out, nil
		}},
}
