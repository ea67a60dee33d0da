package godecode

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A Field is a struct field as encoding/json decodes into it.
type Field struct {
	Name   string
	Index  []int        // the path to it through embedded structs
	Type   reflect.Type // its declared type
	Quoted bool         // the ",string" option applies to it
}

// Fields returns the fields encoding/json decodes into for struct type t,
// in the order of their index paths: its typeFields, without what only
// encoding needs.
func Fields(t reflect.Type) []Field {
	fs := typeFields(t)
	out := make([]Field, len(fs))
	for i, f := range fs {
		out[i] = Field{Name: f.name, Index: f.index, Type: f.typ, Quoted: f.quoted}
	}
	return out
}

// field is a Field with what decoding needs.
type field struct {
	name   string
	folded string // foldName(name)
	index  []int
	tagged bool
	quoted bool // the ",string" option
	typ    reflect.Type
	dec    *typeDec
}

// structDec decodes an object into a struct: each key to the field
// encoding/json gives it (the exact name, else the first field whose name
// equals it up to case), unknown keys read and dropped.
func structDec(t reflect.Type) decFunc {
	fields := typeFields(t)
	exact := make(map[string]int, len(fields))
	folded := make(map[string]int, len(fields))
	for i := range fields {
		f := &fields[i]
		f.dec = elemDecoder(f.typ, true)
		exact[f.name] = i
		if _, ok := folded[f.folded]; !ok {
			folded[f.folded] = i
		}
	}
	return func(d *decoder, v reflect.Value) bool {
		switch d.peek() {
		case '{':
		case 'n':
			return d.null()
		default:
			return false
		}
		top := d.depth == 0
		if empty, ok := d.open('}'); !ok {
			return false
		} else if empty {
			return true
		}
		next := 0 // keys usually come in the order of the fields
		for {
			if d.peek() != '"' {
				return false
			}
			k, ok := d.str()
			if !ok || !d.colon() {
				return false
			}
			fi := -1
			if next < len(fields) && string(k) == fields[next].name {
				fi = next
			} else if j, ok := exact[string(k)]; ok {
				fi = j
			} else if j, ok := folded[string(foldName(k))]; ok {
				fi = j
			}
			if fi < 0 {
				if top && d.opts.StopAtUnknownKey {
					d.stopped = true
					return false
				}
				if !d.skip() {
					return false
				}
			} else {
				next = fi + 1
				f := &fields[fi]
				if f.quoted {
					return false // the ",string" option: encoding/json's
				}
				fv := v
				for n, x := range f.index {
					if n > 0 && fv.Kind() == reflect.Pointer {
						if fv.IsNil() {
							if !fv.CanSet() {
								return false // an embedded pointer to an unexported struct
							}
							fv.Set(reflect.New(fv.Type().Elem()))
						}
						fv = fv.Elem()
					}
					fv = fv.Field(x)
				}
				if !f.dec.fn(d, fv) {
					return false
				}
			}
			if more, ok := d.next('}'); !ok {
				return false
			} else if !more {
				return true
			}
		}
	}
}

// typeFields returns the fields encoding/json decodes into for struct type
// t, in the order of their index paths: its typeFields, without what only
// encoding needs.
func typeFields(t reflect.Type) []field {
	current := []field{}
	next := []field{{typ: t}}
	var count, nextCount map[reflect.Type]int
	visited := map[reflect.Type]bool{}
	var fields []field
	for len(next) > 0 {
		current, next = next, current[:0]
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, f := range current {
			if visited[f.typ] {
				continue
			}
			visited[f.typ] = true
			for i := 0; i < f.typ.NumField(); i++ {
				sf := f.typ.Field(i)
				if sf.Anonymous {
					t := sf.Type
					if t.Kind() == reflect.Pointer {
						t = t.Elem()
					}
					if !sf.IsExported() && t.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !isValidTag(name) {
					name = ""
				}
				index := make([]int, len(f.index)+1)
				copy(index, f.index)
				index[len(f.index)] = i
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				quoted := false
				if hasOption(opts, "string") {
					switch ft.Kind() {
					case reflect.Bool,
						reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
						reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
						reflect.Float32, reflect.Float64,
						reflect.String:
						quoted = true
					}
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					tagged := name != ""
					if name == "" {
						name = sf.Name
					}
					fields = append(fields, field{name: name, tagged: tagged, index: index, typ: sf.Type, quoted: quoted})
					if count[f.typ] > 1 {
						fields = append(fields, fields[len(fields)-1])
					}
					continue
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					next = append(next, field{name: ft.Name(), index: index, typ: ft})
				}
			}
		}
	}
	slices.SortFunc(fields, func(a, b field) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := cmp.Compare(len(a.index), len(b.index)); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return +1
		}
		return slices.Compare(a.index, b.index)
	})
	out := fields[:0]
	for advance, i := 0, 0; i < len(fields); i += advance {
		fi := fields[i]
		for advance = 1; i+advance < len(fields); advance++ {
			if fields[i+advance].name != fi.name {
				break
			}
		}
		if advance == 1 {
			out = append(out, fi)
			continue
		}
		// The first is the dominant one, unless two are equally shallow
		// and equally tagged: then neither.
		if dup := fields[i+1]; len(fi.index) == len(dup.index) && fi.tagged == dup.tagged {
			continue
		}
		out = append(out, fi)
	}
	fields = out
	slices.SortFunc(fields, func(a, b field) int { return slices.Compare(a.index, b.index) })
	for i := range fields {
		fields[i].folded = string(foldName([]byte(fields[i].name)))
	}
	return fields
}

func hasOption(opts, name string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == name {
			return true
		}
	}
	return false
}

// isValidTag is encoding/json's test of a name in a json tag.
func isValidTag(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// foldName is encoding/json's: foldName(x) == foldName(y) exactly when
// bytes.EqualFold(x, y).
func foldName(in []byte) []byte {
	var arr [32]byte // inlined, so that short names need no allocation
	return appendFolded(arr[:0], in)
}

func appendFolded(out, in []byte) []byte {
	for i := 0; i < len(in); {
		if c := in[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			out = append(out, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(in[i:])
		out = utf8.AppendRune(out, foldRune(r))
		i += n
	}
	return out
}

func foldRune(r rune) rune {
	for {
		r2 := unicode.SimpleFold(r)
		if r2 <= r {
			return r2
		}
		r = r2
	}
}
