package pdfio

import (
	"reflect"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// Objects parsed one after the other through one share are the objects
// parsed alone, and the containers inside them that repeat are one value;
// what the share must not take (strings inside, comments, nesting past the
// fast parser's depth, the object itself) is parsed each time.
func TestValueShare(t *testing.T) {
	deep := strings.Repeat("[", fastMaxDepth) + "1" + strings.Repeat("]", fastMaxDepth)
	tests := []struct {
		name   string
		a, b   string
		key    string // the key of a's and b's dictionaries compared
		shared bool   // one value for both
	}{
		{"resources", "<</Type/Page/Resources<</Font<</F1 1 0 R>>>>/ID 4 0 R>>", "<</Type/Page/Resources<</Font<</F1 1 0 R>>>>/ID 5 0 R>>", "Resources", true},
		{"media box", "<</MediaBox[0 0 612 792]/ID 4 0 R>>", "<</MediaBox[0 0 612 792]/ID 9 0 R>>", "MediaBox", true},
		{"hex inside", "<</SI<</ID<0A>>>/N 1>>", "<</SI<</ID<0A>>>/N 2>>", "SI", true},
		{"other text", "<</MediaBox[0 0 612 792]>>", "<</MediaBox[0 0 612 791]>>", "MediaBox", false},
		{"spaces differ", "<</MediaBox[0 0 612 792]>>", "<</MediaBox[0 0  612 792]>>", "MediaBox", false},
		{"string inside", "<</SI<</TS(D:2015)>>/N 1>>", "<</SI<</TS(D:2015)>>/N 2>>", "SI", false},
		{"too deep", "<</K" + deep + "/N 1>>", "<</K" + deep + "/N 2>>", "K", false},
		{"the object itself", "<</MediaBox[0 0 612 792]>>", "<</MediaBox[0 0 612 792]>>", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			share := newValueShare()
			var got [2]types.Object
			for i, s := range []string{tc.a, tc.b} {
				o, ok := parseCompressedShared([]byte(s), share)
				alone, aloneOK := parseCompressed([]byte(s))
				if ok != aloneOK || !reflect.DeepEqual(o, alone) {
					t.Fatalf("parseCompressedShared(%q) = %#v, %v; alone %#v, %v", s, o, ok, alone, aloneOK)
				}
				if !ok {
					return // (pdfcpu's parser decides: nothing to share)
				}
				got[i] = o
				if tc.key != "" {
					got[i] = o.(types.Dict)[tc.key]
				}
			}
			if same := sameValue(got[0], got[1]); same != tc.shared {
				t.Errorf("%q in %q and %q: one value %v, want %v", tc.key, tc.a, tc.b, same, tc.shared)
			}
		})
	}
}

// sameValue: a and b are one map or one array's elements, not equal copies.
func sameValue(a, b types.Object) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if va.Kind() != vb.Kind() || (va.Kind() != reflect.Map && va.Kind() != reflect.Slice) {
		return false
	}
	return va.UnsafePointer() == vb.UnsafePointer()
}

// A string parsed through a share is the parsed bytes themselves (no copy),
// and a string parsed alone is a copy of them.
func TestValueShareAliasesStrings(t *testing.T) {
	for _, shared := range []bool{false, true} {
		data := []byte("<</T(Page 1)/ID<0A1B>>>")
		var share *valueShare
		if shared {
			share = newValueShare()
		}
		o, ok := parseCompressedShared(data, share)
		if !ok {
			t.Fatalf("parseCompressedShared(%q) declined", data)
		}
		d := o.(types.Dict)
		copy(data, "<</T(Xage 1)/ID<FA1B>>>")
		if changed := d["T"] == types.StringLiteral("Xage 1") && d["ID"] == types.HexLiteral("FA1B"); changed != shared {
			t.Errorf("shared %v: the strings follow their bytes: %v (T %q, ID %q)", shared, changed, d["T"], d["ID"])
		}
	}
}

// Of objects themselves, only a stream's dictionary is shared.
func TestValueShareStreamDicts(t *testing.T) {
	tests := []struct {
		name, text string
		shared     bool
	}{
		{"stream", "<</Length 46>>\nstream\n", true},
		{"stream after spaces", "<</Length 46>> \r\nstream\r\n", true},
		{"no stream", "<</Length 46>>\nendobj\n", false},
		{"string inside", "<</Length 46/T(a)>>\nstream\n", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			share := newValueShare()
			var got [2]types.Object
			for i := range got {
				p := objParser{b: []byte(tc.text), share: share}
				o, ok := p.topValue()
				alone := objParser{b: []byte(tc.text)}
				want, wantOK := alone.value(0)
				if ok != wantOK || !reflect.DeepEqual(o, want) || p.i != alone.i {
					t.Fatalf("topValue(%q) = %#v, %v at %d; value(0) %#v, %v at %d", tc.text, o, ok, p.i, want, wantOK, alone.i)
				}
				got[i] = o
			}
			if same := sameValue(got[0], got[1]); same != tc.shared {
				t.Errorf("topValue(%q) twice: one value %v, want %v", tc.text, same, tc.shared)
			}
		})
	}
}
