package pdfio

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/webcap/webcap/webcapture"
)

// docDiff names the first place where a and b, two Documents (or parts of
// them), differ as reflect.DeepEqual sees it, unexported fields included
// ("" when they do not): "IDS.Entries[3].nodePath".
func docDiff(a, b any) string {
	return valueDiff(reflect.ValueOf(a), reflect.ValueOf(b), "", 0, map[[2]uintptr]bool{})
}

// resultAndRead writes u's output and reads it both ways, by Result and by
// ReadBytes (the oracle); a difference is an error that names its first
// field.
func resultAndRead(t *testing.T, u *Update, name string) (result, read *Document) {
	t.Helper()
	out, err := u.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if read, err = ReadBytes(out, name, Options{}); err != nil {
		t.Fatal(err)
	}
	if result, err = u.Result(out, name); err != nil { // (verifyKept: a set taken that reads otherwise is an internal error)
		t.Fatalf("Result: %v", err)
	}
	if !reflect.DeepEqual(result, read) {
		t.Errorf("Result differs from ReadBytes at %s", docDiff(result, read))
	}
	return result, read
}

func valueDiff(a, b reflect.Value, path string, depth int, seen map[[2]uintptr]bool) string {
	switch {
	case depth > 40:
		return ""
	case a.IsValid() != b.IsValid() || a.IsValid() && a.Type() != b.Type():
		return path + ": types differ"
	case !a.IsValid():
		return ""
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice:
		if a.IsNil() != b.IsNil() {
			return path + ": one is nil"
		}
		if a.IsNil() {
			return ""
		}
	}
	switch a.Kind() {
	case reflect.Pointer:
		k := [2]uintptr{a.Pointer(), b.Pointer()}
		if k[0] == k[1] || seen[k] {
			return ""
		}
		seen[k] = true
		return valueDiff(a.Elem(), b.Elem(), path, depth+1, seen)
	case reflect.Interface:
		return valueDiff(a.Elem(), b.Elem(), path, depth+1, seen)
	case reflect.Struct:
		for i := range a.NumField() {
			if d := valueDiff(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name, depth+1, seen); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return path + ": lengths " + strconv.Itoa(a.Len()) + " and " + strconv.Itoa(b.Len())
		}
		for i := range a.Len() {
			if d := valueDiff(a.Index(i), b.Index(i), path+"["+strconv.Itoa(i)+"]", depth+1, seen); d != "" {
				return d
			}
		}
		return ""
	case reflect.Map:
		if a.Len() != b.Len() {
			return path + ": map sizes differ"
		}
		for _, k := range a.MapKeys() {
			if d := valueDiff(a.MapIndex(k), b.MapIndex(k), path+"["+k.String()+"]", depth+1, seen); d != "" {
				return d
			}
		}
		return ""
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		if a.Pointer() != b.Pointer() {
			return path + ": differ"
		}
		return ""
	}
	if !reflect.DeepEqual(valueOf(a), valueOf(b)) {
		return path + ": differ"
	}
	return ""
}

// valueOf is a's value as an interface, unexported fields included (a
// basic kind: compared as such).
func valueOf(a reflect.Value) any {
	switch a.Kind() {
	case reflect.Bool:
		return a.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float()
	case reflect.Complex64, reflect.Complex128:
		return a.Complex()
	case reflect.String:
		return a.String()
	}
	return a.String()
}

// Result takes the content sets AddContentSet wrote and the trees
// SetNameTree built from what the update was given (result_model.go),
// where they read back as given, and reads the same Document as a parse
// of the bytes; the sets that would not read back as given (an empty
// chain, a shape flag the writer overrides, a date whose Raw says
// otherwise, a command that does not exist) are read from what was
// written.
func TestResultFromModels(t *testing.T) {
	date := func(raw string) *webcapture.Date {
		d, err := webcapture.ParseDate(raw)
		if err != nil {
			t.Fatal(err)
		}
		return &d
	}
	badDate := date("D:20240102030405Z")
	badDate.Zone = false
	sub, ct, title := int64(1), "text/html", webcapture.Text("a (title) \\")
	for _, tc := range []struct {
		name   string
		objstm bool
		set    func(pages []webcapture.Ref, cmd webcapture.Ref) *webcapture.ContentSet
		taken  bool
	}{
		{"page set", false, func(pages []webcapture.Ref, cmd webcapture.Ref) *webcapture.ContentSet {
			id, tid := webcapture.RawID("0123456789abcdef"), webcapture.RawID("fedcba9876543210")
			typ := webcapture.Name("SpiderContentSet")
			return &webcapture.ContentSet{Type: &typ, Subtype: webcapture.PageSet, ID: &id, Objects: pages[:2],
				Sources: []*webcapture.SourceInfo{
					{URLs: webcapture.AliasedURLs{URL: "http://a.example/(x)"}, Updated: date("D:20240102030405+01'00'"), Expires: date("D:2025"), Submission: &sub, Command: &cmd},
					{URLs: webcapture.AliasedURLs{Alias: true, URL: "http://b.example/", Chains: [][]string{{"http://c.example/", "http://b.example/"}}}, SHA256: &id},
				},
				SourceArray: true, ContentType: &ct, Created: date("D:20240102030405Z"), Title: &title, TextID: &tid}
		}, true},
		{"image set, object streams", true, func(pages []webcapture.Ref, _ webcapture.Ref) *webcapture.ContentSet {
			id := webcapture.RawID("image set ident.")
			return &webcapture.ContentSet{Subtype: webcapture.ImageSet, ID: &id, Objects: pages[2:3], RefCounts: []int64{2},
				Sources: []*webcapture.SourceInfo{{URLs: webcapture.AliasedURLs{Alias: true, URL: "http://i.example/"}}}}
		}, true},
		{"one source as an array of one", false, func(pages []webcapture.Ref, _ webcapture.Ref) *webcapture.ContentSet {
			id := webcapture.RawID("one source array")
			return &webcapture.ContentSet{Subtype: webcapture.PageSet, ID: &id, Objects: pages[:1], SourceArray: true,
				Sources: []*webcapture.SourceInfo{{URLs: webcapture.AliasedURLs{URL: "http://a.example/"}}}}
		}, true},
		{"two sources not said to be an array", false, func(pages []webcapture.Ref, _ webcapture.Ref) *webcapture.ContentSet {
			id := webcapture.RawID("two sources.....")
			return &webcapture.ContentSet{Subtype: webcapture.PageSet, ID: &id, Objects: pages[:1],
				Sources: []*webcapture.SourceInfo{{URLs: webcapture.AliasedURLs{URL: "http://a.example/"}}, {URLs: webcapture.AliasedURLs{URL: "http://b.example/"}}}}
		}, false},
		{"counts not said to be an array", false, func(pages []webcapture.Ref, _ webcapture.Ref) *webcapture.ContentSet {
			id := webcapture.RawID("two counts......")
			return &webcapture.ContentSet{Subtype: webcapture.ImageSet, ID: &id, Objects: pages[:2], RefCounts: []int64{1, 2},
				Sources: []*webcapture.SourceInfo{{URLs: webcapture.AliasedURLs{URL: "http://a.example/"}}}}
		}, false},
		{"an empty chain", false, func(pages []webcapture.Ref, _ webcapture.Ref) *webcapture.ContentSet {
			id := webcapture.RawID("an empty chain..")
			return &webcapture.ContentSet{Subtype: webcapture.PageSet, ID: &id, Objects: pages[:1],
				Sources: []*webcapture.SourceInfo{{URLs: webcapture.AliasedURLs{Alias: true, URL: "http://a.example/", Chains: [][]string{{}}}}}}
		}, false},
		{"a date its Raw does not say", false, func(pages []webcapture.Ref, _ webcapture.Ref) *webcapture.ContentSet {
			id := webcapture.RawID("a date..........")
			return &webcapture.ContentSet{Subtype: webcapture.PageSet, ID: &id, Objects: pages[:1], Created: badDate,
				Sources: []*webcapture.SourceInfo{{URLs: webcapture.AliasedURLs{URL: "http://a.example/"}}}}
		}, false},
		{"a command that does not exist", false, func(pages []webcapture.Ref, _ webcapture.Ref) *webcapture.ContentSet {
			id, none := webcapture.RawID("no command......"), webcapture.Ref{Num: 999}
			return &webcapture.ContentSet{Subtype: webcapture.PageSet, ID: &id, Objects: pages[:1],
				Sources: []*webcapture.SourceInfo{{URLs: webcapture.AliasedURLs{URL: "http://a.example/"}, Command: &none}}}
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, err := NewUpdate(plain(3, tc.objstm), "in.pdf", Options{})
			if err != nil {
				t.Fatal(err)
			}
			d0, err := u.Document()
			if err != nil {
				t.Fatal(err)
			}
			pages := []webcapture.Ref{d0.Pages[0].Ref, d0.Pages[1].Ref, d0.Pages[2].Ref}
			cmd, err := u.AddCommand(&webcapture.Command{URL: "http://a.example/"})
			if err != nil {
				t.Fatal(err)
			}
			cs := tc.set(pages, cmd)
			ref, err := u.AddContentSet(cs)
			if err != nil {
				t.Fatal(err)
			}
			// A second set under no tree: an orphan, found by the scan.
			oid := webcapture.RawID("an orphan set...")
			if _, err := u.AddContentSet(&webcapture.ContentSet{Subtype: webcapture.PageSet, ID: &oid, Objects: pages[2:],
				Sources: []*webcapture.SourceInfo{{URLs: webcapture.AliasedURLs{URL: "http://o.example/"}}}}); err != nil {
				t.Fatal(err)
			}
			if err := u.SetNameTree("IDS", []NameEntry{{Key: string(*cs.ID), Sets: []webcapture.Ref{ref}}}, TreeShape{Hex: true}); err != nil {
				t.Fatal(err)
			}
			if err := u.SetNameTree("URLS", []NameEntry{{Key: "http://z.example/", Sets: []webcapture.Ref{ref}}, {Key: "http://a.example/", Sets: []webcapture.Ref{ref, ref}}}, TreeShape{Leaf: 1, Fan: 2}); err != nil {
				t.Fatal(err)
			}
			plans := map[int]*setPlan{}
			for _, o := range u.objs.offs {
				if p, ok := o.val.(*setPlan); ok {
					plans[o.num] = p
				}
			}
			if len(plans) != 2 {
				t.Fatalf("%d sets kept as their plans, want 2", len(plans))
			}
			resultAndRead(t, u, "out.pdf")
			if taken := plans[ref.Num].given; taken != tc.taken {
				t.Errorf("set taken from its model: %v, want %v", taken, tc.taken)
			}
			for num, p := range plans {
				if num != ref.Num && !p.given {
					t.Errorf("the orphan was not taken from its model")
				}
			}
			for _, tr := range []string{"IDS", "URLS"} {
				if !u.plan.trees[tr].used {
					t.Errorf("the %s tree was walked", tr)
				}
			}
		})
	}
}

// TestResultUnlistedSets: sets AddContentSet wrote that no tree lists are
// Result's, as a read finds them, from their plans: one whose subtype is
// neither SPS nor SIS is no set at all (the scan passes it by), one
// whose model does not read back as itself (two sources not said to be
// an array) is read from its dictionary, and a page set is taken from
// its model.
func TestResultUnlistedSets(t *testing.T) {
	u, err := NewUpdate(plain(3, false), "in.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	d0, err := u.Document()
	if err != nil {
		t.Fatal(err)
	}
	page := []webcapture.Ref{d0.Pages[0].Ref}
	src := func(urls ...string) []*webcapture.SourceInfo {
		var s []*webcapture.SourceInfo
		for _, u := range urls {
			s = append(s, &webcapture.SourceInfo{URLs: webcapture.AliasedURLs{URL: u}})
		}
		return s
	}
	id := webcapture.RawID("0123456789abcdef")
	plans := map[string]*setPlan{}
	for _, cs := range []*webcapture.ContentSet{
		{Subtype: "XYZ", ID: &id, Objects: page, Sources: src("http://x.example/")},
		{Subtype: webcapture.PageSet, ID: &id, Objects: page, Sources: src("http://a.example/", "http://b.example/")},
		{Subtype: webcapture.PageSet, ID: &id, Objects: page, Sources: src("http://c.example/")},
	} {
		if _, err := u.AddContentSet(cs); err != nil {
			t.Fatal(err)
		}
		o := u.objs.offs[len(u.objs.offs)-1]
		p, ok := o.val.(*setPlan)
		if !ok {
			t.Fatalf("set %s kept as %T, want its plan", cs.Subtype, o.val)
		}
		plans[string(cs.Subtype)+cs.Sources[len(cs.Sources)-1].URLs.URL] = p
	}
	result, _ := resultAndRead(t, u, "out.pdf")
	if len(result.Sets) != 2 {
		t.Errorf("%d sets, want 2 (the XYZ object is no set)", len(result.Sets))
	}
	for k, want := range map[string]bool{"XYZhttp://x.example/": false, "SPShttp://b.example/": false, "SPShttp://c.example/": true} {
		if plans[k].given != want {
			t.Errorf("%s taken from its model: %v, want %v", k, plans[k].given, want)
		}
	}
}
