package pdfio

import (
	"reflect"
	"strconv"
)

// docDiff names the first place where a and b, two Documents (or parts of
// them), differ as reflect.DeepEqual sees it, unexported fields included
// ("" when they do not): "IDS.Entries[3].nodePath".
func docDiff(a, b any) string {
	return valueDiff(reflect.ValueOf(a), reflect.ValueOf(b), "", 0, map[[2]uintptr]bool{})
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
