package coerce

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coerce-go/coerce/internal/godecode"
)

// The types Unmarshal decodes into in these tests: a workflow step's typed
// input, with every kind of field encoding/json treats apart.
type (
	umTask struct {
		ID       string   `json:"id"`
		Title    string   `json:"title,omitempty"`
		Priority int      `json:"priority,omitempty"`
		Files    []string `json:"files,omitempty"`
	}
	umBase struct {
		CreatedBy string `json:"created_by"`
		Revision  int    `json:"revision"`
	}
	// umLevel decodes from text only.
	umLevel int
	umInput struct {
		umBase
		Slug     string            `json:"slug"`
		Tasks    []umTask          `json:"tasks"`
		Lead     *umTask           `json:"lead"`
		Limit    *int              `json:"limit"`
		Labels   map[string]int    `json:"labels"`
		ByID     map[int]umTask    `json:"by_id"`
		Ratio    float64           `json:"ratio"`
		Notify   bool              `json:"notify"`
		Small    int8              `json:"small"`
		RunID    int64             `json:"run_id,string"`
		Note     string            `json:"note,omitempty"`
		Secret   string            `json:"-"`
		Deadline time.Time         `json:"deadline"`
		Payload  json.RawMessage   `json:"payload"`
		Extra    any               `json:"extra"`
		Blob     []byte            `json:"blob"`
		Matrix   [2][2]int         `json:"matrix"`
		Level    umLevel           `json:"level"`
		Meta     map[string]string `json:"meta"`
		Enabled  bool
	}
	// umNumbers holds integers beyond 2^53 in each type that keeps them.
	umNumbers struct {
		I64 int64       `json:"i64"`
		U64 uint64      `json:"u64"`
		Num json.Number `json:"num"`
		Big *big.Int    `json:"big"`
		F   *big.Float  `json:"f"`
	}
	// umAlias has its own UnmarshalJSON in the "type Alias T" idiom, which
	// checks the decoded value: Unmarshal converts its fields first.
	umAlias struct {
		Slug  string   `json:"slug"`
		Tasks []umTask `json:"tasks"`
	}
	umEnvelope struct {
		Type    string  `json:"type"`
		Payload umAlias `json:"payload"`
	}
	// umOpaque decodes itself from any JSON and has no tagged fields.
	umOpaque struct{ Text string }
	// umLegacy also accepts a plain string, an older form of its payload,
	// which its fields do not say.
	umLegacy struct {
		Tasks []umTask `json:"tasks"`
	}
	// Recursive types, through pointers, slices and maps.
	umNode struct {
		Name string  `json:"name"`
		Next *umNode `json:"next"`
	}
	umTree  []umTree
	umGraph map[string]umGraph
)

func (l *umLevel) UnmarshalText(b []byte) error {
	n, err := strconv.Atoi(strings.TrimPrefix(string(b), "level-"))
	*l = umLevel(n)
	return err
}

func (a *umAlias) UnmarshalJSON(b []byte) error {
	type Alias umAlias
	if err := json.Unmarshal(b, (*Alias)(a)); err != nil {
		return err
	}
	if a.Slug == "" {
		return errors.New("umAlias: no slug")
	}
	return nil
}

func (o *umOpaque) UnmarshalJSON(b []byte) error {
	o.Text = string(b)
	return nil
}

func (l *umLegacy) UnmarshalJSON(b []byte) error {
	var id string
	if json.Unmarshal(b, &id) == nil {
		l.Tasks = []umTask{{ID: id}}
		return nil
	}
	type Alias umLegacy
	return json.Unmarshal(b, (*Alias)(l))
}

// umDiff compares decoded values, big numbers by value (see diff).
func umDiff(want, got any) string { return diff(want, got) }

// errorPaths returns the Path of each *Error that err joins, in order, or
// nil and false if some error is not an *Error.
func errorPaths(err error) ([]string, bool) {
	if err == nil {
		return nil, false
	}
	var paths []string
	for _, e := range joinedErrors(err) {
		ce, ok := e.(*Error)
		if !ok {
			return nil, false
		}
		paths = append(paths, ce.Path)
	}
	return paths, true
}

func ptr[T any](v T) *T { return &v }

func bigInt(s string) *big.Int {
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic(s)
	}
	return n
}

func bigFloat(s string) *big.Float {
	f, _, err := big.ParseFloat(s, 10, 0, big.ToNearestEven)
	if err != nil {
		panic(err)
	}
	return f
}

var umDeadline = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// An unmarshalCase decodes data into a fresh target and expects want, or
// the *Errors at paths.
type unmarshalCase struct {
	name  string
	data  string
	into  func() any // a pointer to the target, possibly holding defaults
	want  any        // what the pointer then points to, as a pointer
	paths []string   // the Path of each *Error expected, in order
	is    error      // a sentinel every *Error wraps, when paths is set
}

func newInput() any { return new(umInput) }

func unmarshalCases() []unmarshalCase {
	const tasksJSON = `[{"id":"t1","title":"parse","priority":2},{"id":"t2","files":["a.go"]}]`
	tasks := []umTask{{ID: "t1", Title: "parse", Priority: 2}, {ID: "t2", Files: []string{"a.go"}}}
	once, _ := json.Marshal(tasksJSON)
	twice, _ := json.Marshal(string(once))
	return []unmarshalCase{{
		name: "conforming struct",
		data: `{"slug":"s","tasks":` + tasksJSON + `,"ratio":0.5,"notify":true,"run_id":"42","Enabled":true}`,
		into: newInput,
		want: &umInput{Slug: "s", Tasks: tasks, Ratio: 0.5, Notify: true, RunID: 42, Enabled: true},
	}, {
		name: "slice of structs stringified once",
		data: `{"slug":"s","tasks":` + string(once) + `}`,
		into: newInput,
		want: &umInput{Slug: "s", Tasks: tasks},
	}, {
		name: "slice of structs stringified twice",
		data: `{"slug":"s","tasks":` + string(twice) + `}`,
		into: newInput,
		want: &umInput{Slug: "s", Tasks: tasks},
	}, {
		name: "slice of structs fenced",
		data: `{"tasks":` + strconv.Quote("```json\n"+tasksJSON+"\n```") + `}`,
		into: newInput,
		want: &umInput{Tasks: tasks},
	}, {
		name: "nested struct: scalars and JSON text inside JSON text",
		data: `{"tasks":"[{\"id\":\"t1\",\"priority\":\"2\",\"files\":\"[\\\"a.go\\\"]\"}]","lead":"{\"id\":\"t9\",\"priority\":\"1\"}"}`,
		into: newInput,
		want: &umInput{Tasks: []umTask{{ID: "t1", Priority: 2, Files: []string{"a.go"}}}, Lead: &umTask{ID: "t9", Priority: 1}},
	}, {
		name: "pointers: empty string is null, a numeric string a number",
		data: `{"lead":"","limit":"5"}`,
		into: newInput,
		want: &umInput{Limit: ptr(5)},
	}, {
		name: "pointers: null",
		data: `{"lead":null,"limit":null}`,
		into: newInput,
		want: &umInput{},
	}, {
		name: "scalars as strings, numbers as text",
		data: `{"slug":5,"ratio":"0.25","notify":"yes","small":"-3","Enabled":"1"}`,
		into: newInput,
		want: &umInput{Slug: "5", Ratio: 0.25, Notify: true, Small: -3, Enabled: true},
	}, {
		name: "maps: string and integer keys",
		data: `{"labels":"{\"bug\":\"1\",\"docs\":2}","by_id":{"7":"{\"id\":\"t7\"}"},"meta":{"k":3}}`,
		into: newInput,
		want: &umInput{Labels: map[string]int{"bug": 1, "docs": 2}, ByID: map[int]umTask{7: {ID: "t7"}}, Meta: map[string]string{"k": "3"}},
	}, {
		name: "embedded struct: promoted fields",
		data: `{"created_by":7,"revision":"3"}`,
		into: newInput,
		want: &umInput{umBase: umBase{CreatedBy: "7", Revision: 3}},
	}, {
		name: `json:"-" is never decoded, whatever its key`,
		data: `{"Secret":"x","secret":"y","-":"z"}`,
		into: newInput,
		want: &umInput{},
	}, {
		name: "omitempty: absent, and converted when present",
		data: `{"note":5}`,
		into: newInput,
		want: &umInput{Note: "5"},
	}, {
		name: "string option: a number becomes its text",
		data: `{"run_id":9007199254740993}`,
		into: newInput,
		want: &umInput{RunID: 9007199254740993},
	}, {
		name: "time.Time from RFC 3339 text",
		data: `{"deadline":"2026-01-02T03:04:05Z"}`,
		into: newInput,
		want: &umInput{Deadline: umDeadline},
	}, {
		name: "json.RawMessage keeps every byte, even JSON text in a string",
		data: `{"payload": {"b": "[1]",  "a": 1.50}, "extra":"[1]"}`,
		into: newInput,
		want: &umInput{Payload: json.RawMessage(`{"b": "[1]",  "a": 1.50}`), Extra: "[1]"},
	}, {
		name: "json.RawMessage as a string stays a string",
		data: `{"payload":"{\"a\":1}"}`,
		into: newInput,
		want: &umInput{Payload: json.RawMessage(`"{\"a\":1}"`)},
	}, {
		name: "[]byte: base64 text, or an array of bytes",
		data: `{"blob":"aGk="}`,
		into: newInput,
		want: &umInput{Blob: []byte("hi")},
	}, {
		name: "[]byte as an array",
		data: `{"blob":[104,"105"]}`,
		into: newInput,
		want: &umInput{Blob: []byte("hi")},
	}, {
		name: "array of arrays, and a TextUnmarshaler given a number",
		data: `{"matrix":"[[1,\"0\"],[0,1]]","level":7}`,
		into: newInput,
		want: &umInput{Matrix: [2][2]int{{1, 0}, {0, 1}}, Level: 7},
	}, {
		name: "unknown keys pass as they are",
		data: `{"slug":"s","unknown":"[1]","other":{"x":"1"}}`,
		into: newInput,
		want: &umInput{Slug: "s"},
	}, {
		name: "a key differing in case is not converted, and encoding/json decodes it",
		data: `{"SLUG":"s","Notify":true}`,
		into: newInput,
		want: &umInput{Slug: "s", Notify: true},
	}, {
		name: "the whole argument object stringified",
		data: `"{\"slug\":\"s\",\"tasks\":[]}"`,
		into: newInput,
		want: &umInput{Slug: "s", Tasks: []umTask{}},
	}, {
		name: "defaults set before the call survive",
		data: `{"tasks":` + string(once) + `}`,
		into: func() any { return &umInput{Slug: "default", Ratio: 1} },
		want: &umInput{Slug: "default", Ratio: 1, Tasks: tasks},
	}, {
		name: "the Alias idiom, conforming",
		data: `{"slug":"s","tasks":` + tasksJSON + `}`,
		into: func() any { return new(umAlias) },
		want: &umAlias{Slug: "s", Tasks: tasks},
	}, {
		name: "the Alias idiom, a field stringified once",
		data: `{"slug":"s","tasks":` + string(once) + `}`,
		into: func() any { return new(umAlias) },
		want: &umAlias{Slug: "s", Tasks: tasks},
	}, {
		name: "the Alias idiom, a field stringified twice",
		data: `{"slug":"s","tasks":` + string(twice) + `}`,
		into: func() any { return new(umAlias) },
		want: &umAlias{Slug: "s", Tasks: tasks},
	}, {
		name: "the Alias idiom inside an envelope",
		data: `{"type":"review","payload":{"slug":"s","tasks":` + string(twice) + `}}`,
		into: func() any { return new(umEnvelope) },
		want: &umEnvelope{Type: "review", Payload: umAlias{Slug: "s", Tasks: tasks}},
	}, {
		name: "an opaque UnmarshalJSON gets the bytes as sent",
		data: `{"o": "[1, 2]"}`,
		into: func() any { return new(struct{ O umOpaque }) },
		want: &struct{ O umOpaque }{umOpaque{`"[1, 2]"`}},
	}, {
		name: "a form UnmarshalJSON accepts beyond its fields: decoded as sent",
		data: `"t1"`,
		into: func() any { return new(umLegacy) },
		want: &umLegacy{Tasks: []umTask{{ID: "t1"}}},
	}, {
		name: "integers beyond 2^53, as numbers",
		data: `{"i64":9007199254740993,"u64":18446744073709551615,"num":12345678901234567890123,"big":123456789012345678901234567890}`,
		into: func() any { return new(umNumbers) },
		want: &umNumbers{I64: 9007199254740993, U64: 18446744073709551615, Num: "12345678901234567890123", Big: bigInt("123456789012345678901234567890")},
	}, {
		name: "integers beyond 2^53, as strings",
		data: `{"i64":"9007199254740993","u64":"18446744073709551615","num":"12345678901234567890123","big":"123456789012345678901234567890"}`,
		into: func() any { return new(umNumbers) },
		want: &umNumbers{I64: 9007199254740993, U64: 18446744073709551615, Num: "12345678901234567890123", Big: bigInt("123456789012345678901234567890")},
	}, {
		name: "integers beyond 2^53 inside JSON text",
		data: `"{\"i64\":-9007199254740993,\"big\":\"-123456789012345678901234567890\"}"`,
		into: func() any { return new(umNumbers) },
		want: &umNumbers{I64: -9007199254740993, Big: bigInt("-123456789012345678901234567890")},
	}, {
		name: "big.Float decodes from text, and a number becomes its text",
		data: `{"f":3.14159265358979323846264338327950288}`,
		into: func() any { return new(umNumbers) },
		want: &umNumbers{F: bigFloat("3.14159265358979323846264338327950288")},
	}, {
		name: "top level: a slice from JSON text",
		data: ` "[1, \"2\"]" `,
		into: func() any { return new([]int) },
		want: &[]int{1, 2},
	}, {
		name: "top level: a pointer to a struct",
		data: `"{\"id\":\"t1\",\"priority\":\"3\"}"`,
		into: func() any { return new(*umTask) },
		want: ptr(&umTask{ID: "t1", Priority: 3}),
	}, {
		name: "top level: null leaves the value as it was",
		data: `null`,
		into: func() any { return &umTask{ID: "kept"} },
		want: &umTask{ID: "kept"},
	}, {
		name: "top level: any",
		data: `{"a":"[1]"}`,
		into: func() any { return new(any) },
		want: ptr[any](map[string]any{"a": "[1]"}),
	}, {
		name: "recursive struct",
		data: `{"name":"a","next":"{\"name\":\"b\",\"next\":{\"name\":7}}"}`,
		into: func() any { return new(umNode) },
		want: &umNode{Name: "a", Next: &umNode{Name: "b", Next: &umNode{Name: "7"}}},
	}, {
		name: "recursive slice type",
		data: `[[], "[[]]"]`,
		into: func() any { return new(umTree) },
		want: &umTree{{}, {{}}},
	}, {
		name: "recursive map type",
		data: `{"a":"{\"b\":{}}"}`,
		into: func() any { return new(umGraph) },
		want: &umGraph{"a": {"b": {}}},
	}, {
		name:  "errors with paths",
		data:  `{"tasks":[{"id":"t1","priority":"high"}],"ratio":"x","lead":"nope"}`,
		into:  newInput,
		paths: []string{"/lead", "/ratio", "/tasks/0/priority"},
	}, {
		name:  "error inside stringified JSON text",
		data:  `{"tasks":"[{\"id\":\"t1\",\"priority\":2.5}]"}`,
		into:  newInput,
		paths: []string{"/tasks/0/priority"},
		is:    ErrPrecision,
	}, {
		name:  "error at the top",
		data:  `"not json"`,
		into:  newInput,
		paths: []string{""},
		is:    ErrKind,
	}, {
		name:  "cut off",
		data:  `{"slug":`,
		into:  newInput,
		paths: []string{""},
		is:    ErrTruncated,
	}}
}

func TestUnmarshal(t *testing.T) {
	for _, tt := range unmarshalCases() {
		t.Run(tt.name, func(t *testing.T) {
			v := tt.into()
			before := reflect.ValueOf(v).Elem().Interface()
			err := Unmarshal([]byte(tt.data), v)
			if tt.paths == nil {
				if err != nil {
					t.Fatalf("Unmarshal(%s): %v", tt.data, err)
				}
				if d := umDiff(tt.want, v); d != "" {
					t.Errorf("Unmarshal(%s) (-want +got):\n%s", tt.data, d)
				}
				return
			}
			paths, ok := errorPaths(err)
			if !ok || err == nil {
				t.Fatalf("Unmarshal(%s): error %T %v, want *coerce.Errors", tt.data, err, err)
			}
			checkErrorContract(t, err)
			if d := diff(tt.paths, paths); d != "" {
				t.Errorf("Unmarshal(%s): %v: paths (-want +got):\n%s", tt.data, err, d)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("Unmarshal(%s): %v, want it to wrap %v", tt.data, err, tt.is)
			}
			if d := umDiff(before, reflect.ValueOf(v).Elem().Interface()); d != "" {
				t.Errorf("Unmarshal(%s) failed but wrote (-before +after):\n%s", tt.data, d)
			}
		})
	}
}

// TestUnmarshalAsJSON checks the promise about text that already fits:
// Unmarshal gives exactly what json.Unmarshal gives, without converting
// anything, for every successful row's conforming form.
func TestUnmarshalAsJSON(t *testing.T) {
	for _, tt := range unmarshalCases() {
		if tt.paths != nil {
			continue
		}
		t.Run(tt.name, func(t *testing.T) {
			// What Unmarshal made, written by encoding/json, fits as it is.
			text, err := json.Marshal(tt.want)
			if err != nil {
				t.Fatal(err)
			}
			want, got := tt.into(), tt.into()
			if err := json.Unmarshal(text, want); err != nil {
				t.Skipf("json.Marshal writes %s, which json.Unmarshal does not read back: %v", text, err)
			}
			changes := 0
			opts := Options{OnChange: func(Change) { changes++ }}
			if err := opts.Unmarshal(text, got); err != nil {
				t.Fatalf("Unmarshal(%s): %v", text, err)
			}
			if d := umDiff(want, got); d != "" {
				t.Errorf("Unmarshal(%s) differs from json.Unmarshal (-json +coerce):\n%s", text, d)
			}
			if changes != 0 {
				t.Errorf("Unmarshal(%s) converted %d values of conforming text", text, changes)
			}
		})
	}
}

// A value json.Unmarshal accepts as it is must come out the same, even
// where the conversion cannot read it: invalid UTF-8 and escaped lone
// surrogates, which encoding/json replaces with U+FFFD and coercion refuses
// to alter, and numbers beyond float64 in a json.RawMessage.
func TestUnmarshalAcceptsWhatJSONAccepts(t *testing.T) {
	for _, tt := range []struct {
		data string
		ok   bool
	}{
		{"{\"slug\":\"\xff\",\"tasks\":[]}", true},
		{`{"slug":"\ud800"}`, true},
		{`{"payload":1e400}`, true},
		// Text the conversion cannot read is decoded as sent, or not at all.
		{"{\"slug\":\"\xff\",\"tasks\":\"[]\"}", false},
	} {
		var want, got umInput
		jerr := json.Unmarshal([]byte(tt.data), &want)
		err := Unmarshal([]byte(tt.data), &got)
		if (jerr == nil) != tt.ok || (err == nil) != tt.ok {
			t.Errorf("Unmarshal(%q) = %v, json.Unmarshal %v; want both to succeed: %v", tt.data, err, jerr, tt.ok)
			continue
		}
		if d := umDiff(want, got); tt.ok && d != "" {
			t.Errorf("Unmarshal(%q) (-json +coerce):\n%s", tt.data, d)
		}
	}
}

// TestUnmarshalDecodingErrors checks that an error from encoding/json, once
// the text is converted, is returned as encoding/json's, and that nothing
// is written.
func TestUnmarshalDecodingErrors(t *testing.T) {
	for _, tt := range []struct {
		name, data string
		check      func(error) bool
	}{
		{"out of the field's range", `{"small":"300"}`, func(err error) bool {
			var te *json.UnmarshalTypeError
			return errors.As(err, &te) && strings.HasSuffix(te.Field, "small")
		}},
		{"an UnmarshalText error", `{"level":"level-x"}`, func(err error) bool {
			var ne *strconv.NumError
			return errors.As(err, &ne)
		}},
		{"an UnmarshalJSON error", `{"a":{"tasks":"[]"}}`, func(err error) bool {
			return err != nil && err.Error() == "umAlias: no slug"
		}},
		{"time.Time given a number", `{"deadline":5}`, func(err error) bool {
			var pe *time.ParseError
			return errors.As(err, &pe)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := &struct {
				umInput
				A umAlias `json:"a"`
			}{umInput: umInput{Slug: "default"}}
			err := Unmarshal([]byte(tt.data), in)
			if !tt.check(err) {
				t.Errorf("Unmarshal(%s): error %T %v", tt.data, err, err)
			}
			if _, ok := errorPaths(err); ok {
				t.Errorf("Unmarshal(%s): %v is a *coerce.Error, want encoding/json's", tt.data, err)
			}
			if in.Slug != "default" || in.Level != 0 || in.A.Tasks != nil {
				t.Errorf("Unmarshal(%s) failed but wrote %+v", tt.data, in)
			}
		})
	}
}

// Not a non-nil pointer: an error, as json.Unmarshal gives, not a panic.
func TestUnmarshalInvalidTarget(t *testing.T) {
	var task umTask
	for _, v := range []any{nil, task, (*umTask)(nil), map[string]any{}, []int{}} {
		err := Unmarshal([]byte(`{"id":"x"}`), v)
		var ie *json.InvalidUnmarshalError
		if !errors.As(err, &ie) {
			t.Errorf("Unmarshal into %T: error %T %v, want *json.InvalidUnmarshalError", v, err, err)
			continue
		}
		if want := json.Unmarshal([]byte(`{"id":"x"}`), v); want.Error() != err.Error() {
			t.Errorf("Unmarshal into %T: %v, json.Unmarshal says %v", v, err, want)
		}
	}
}

// A key that differs in case still reaches its field in encoding/json, as
// sent: the conversion leaves it alone.
func TestUnmarshalCaseFoldedKeyNotConverted(t *testing.T) {
	var in umInput
	err := Unmarshal([]byte(`{"Tasks":"[]"}`), &in)
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field != "tasks" {
		t.Errorf("Unmarshal: error %T %v, want json.UnmarshalTypeError for tasks", err, err)
	}
}

// What the fresh value shares with *v: a map and the value a pointer points
// to, which encoding/json decodes into in place; the rest is copied.
func TestUnmarshalSharesWhatJSONDecodesInPlace(t *testing.T) {
	labels := map[string]int{"old": 1}
	lead := &umTask{ID: "old"}
	in := umInput{Labels: labels, Lead: lead, Slug: "default"}
	if err := Unmarshal([]byte(`{"labels":{"new":"2"},"lead":{"title":"t"}}`), &in); err != nil {
		t.Fatal(err)
	}
	if d := diff(map[string]int{"old": 1, "new": 2}, labels); d != "" {
		t.Errorf("map decoded into in place (-want +got):\n%s", d)
	}
	if lead.ID != "old" || lead.Title != "t" || in.Lead != lead || in.Slug != "default" {
		t.Errorf("pointer decoded into in place: %+v, %+v", lead, in)
	}
}

// A decoding error writes nothing, not even into what a target holding
// values shares with it: a later field that fails to decode (a deadline
// that is no time) leaves the map entries and the pointee before it as
// they were.
func TestUnmarshalErrorWritesNothingShared(t *testing.T) {
	labels := map[string]int{"old": 1}
	lead := &umTask{ID: "old"}
	tasks := make([]umTask, 1, 4)
	in := umInput{Labels: labels, Lead: lead, Tasks: tasks, Slug: "default"}
	err := Unmarshal([]byte(`{"labels":{"new":2},"lead":{"title":"t"},"tasks":[{"id":"x"}],"deadline":"yesterday"}`), &in)
	if err == nil {
		t.Fatal("no error for a deadline that is no time")
	}
	if len(labels) != 1 || lead.Title != "" || tasks[:1][0].ID != "" || in.Slug != "default" || in.Lead != lead {
		t.Errorf("a failed Unmarshal wrote into the target: labels %v, lead %+v, tasks %+v, in %+v", labels, lead, tasks[:1], in)
	}
	var zero umInput
	if Unmarshal([]byte(`{"labels":{"new":2},"deadline":"yesterday"}`), &zero) == nil || zero.Labels != nil {
		t.Errorf("a failed Unmarshal into a zero value left %+v", zero)
	}
}

// Conversions are reported once the value is decoded, and only then.
func TestUnmarshalOnChange(t *testing.T) {
	var got []string
	opts := Options{OnChange: func(c Change) { got = append(got, c.Path+" "+c.Rule.String()) }}
	var in umInput
	if err := opts.Unmarshal([]byte(`{"tasks":"[{\"id\":\"t1\",\"priority\":\"2\"}]","limit":""}`), &in); err != nil {
		t.Fatal(err)
	}
	want := []string{"/limit null-from-text", "/tasks json-text", "/tasks/0/priority number-from-text"}
	if d := diff(want, got); d != "" {
		t.Errorf("changes (-want +got):\n%s", d)
	}
	got = nil
	if err := opts.Unmarshal([]byte(`{"tasks":"[]","small":"300"}`), &in); err == nil {
		t.Fatal("no error")
	}
	if got != nil {
		t.Errorf("changes reported for a failed Unmarshal: %q", got)
	}
}

// The limits hold even where json.Unmarshal would accept the text.
func TestUnmarshalLimits(t *testing.T) {
	for _, tt := range []struct {
		opts Options
		data string
	}{
		{Options{MaxSize: 10}, `{"slug":"long enough"}`},
		{Options{MaxDepth: 2}, `{"extra":[[1]]}`},
		{Options{MaxDepth: 2}, `[[[1]]]`},
	} {
		var v umInput
		if err := tt.opts.Unmarshal([]byte(tt.data), &v); !errors.Is(err, ErrLimit) {
			t.Errorf("%+v.Unmarshal(%s) = %v, want ErrLimit", tt.opts, tt.data, err)
		}
	}
}

// TestUnmarshalGoTypes checks the types derived from Go types, for
// Unmarshal and SchemaForType alike.
func TestUnmarshalGoTypes(t *testing.T) {
	type (
		textKey  struct{ umLevel }
		withText struct {
			A umLevel `json:"a"`
		}
		embedsTwice struct {
			umBase
			Other struct{ umBase }
		}
		umBaseCopy  umBase
		ambiguous   struct{ umBase }
		ambiguous2  struct{ umBaseCopy }
		twoAtOneLvl struct {
			ambiguous
			ambiguous2
		}
		badTag struct {
			//lint:ignore SA5008 encoding/json ignores a name with a quote in it, which is what this tests
			A int `json:"a\"b"`
			B int `json:"b,omitempty,string"`
		}
		pointerLoop *pointerLoop
	)
	for _, tt := range []struct {
		v    any
		want string
	}{
		{new(int), "integer"},
		{new(*int), "integer | null"},
		{new(**string), "string | null"},
		{new([]byte), "string | list[integer]"},
		{new([3]byte), "list[integer]"},
		{new(map[int]bool), "dict[string, boolean]"},
		{new(map[bool]int), "any"},
		{new(map[textKey]int), "dict[string, integer]"},
		{new(withText), "withText"},
		{new(time.Time), "string"},
		{new(json.Number), "number | string"},
		{new(json.RawMessage), "any"},
		{new(big.Int), "integer"},
		{new(big.Float), "string"},
		{new(umAlias), "umAlias"},
		{new(umOpaque), "any"},
		{new(umTree), "list[umTree]"},
		{new(umGraph), "dict[string, umGraph]"},
		{new(umNode), "umNode"},
		{new(pointerLoop), "any"},
		{new(chan int), "any"},
		{new(any), "any"},
		{new(fmt.Stringer), "any"},
	} {
		if got := goType(reflect.TypeOf(tt.v).Elem()); got.String() != tt.want {
			t.Errorf("type of %T = %s, want %s", tt.v, got, tt.want)
		}
	}

	// Fields as encoding/json finds them.
	for _, tt := range []struct {
		v    any
		want map[string]string
	}{
		{umAlias{}, map[string]string{"slug": "string", "tasks": "list[umTask]"}},
		{umNode{}, map[string]string{"name": "string", "next": "umNode | null"}},
		{embedsTwice{}, map[string]string{"created_by": "string", "revision": "integer", "Other": "object"}},
		{twoAtOneLvl{}, map[string]string{}},
		{badTag{B: 1}, map[string]string{"A": "integer", "b": "string"}},
		{withText{}, map[string]string{"a": "string"}},
	} {
		s, err := SchemaForType(reflect.TypeOf(tt.v))
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for k, p := range s.Type().props {
			got[k] = p.String()
		}
		if d := diff(tt.want, got); d != "" {
			t.Errorf("fields of %T (-want +got):\n%s", tt.v, d)
		}
		// The field names are the keys encoding/json writes.
		text, err := json.Marshal(tt.v)
		if err != nil {
			t.Fatal(err)
		}
		var written map[string]any
		if err := json.Unmarshal(text, &written); err == nil && len(written) != len(got) {
			t.Errorf("%T: json.Marshal writes %s, fields %v", tt.v, text, got)
		}
	}
}

// Derived types are cached, the cache is bounded, and Unmarshal is safe
// for concurrent use (run with -race).
func TestUnmarshalConcurrentAndCached(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				var in umInput
				if err := Unmarshal([]byte(`{"tasks":"[{\"id\":\"t\"}]","limit":"`+strconv.Itoa(i)+`"}`), &in); err != nil || *in.Limit != i {
					t.Errorf("Unmarshal: %v, %+v", err, in)
					return
				}
			}
		}()
	}
	wg.Wait()
	rt := reflect.TypeFor[umInput]()
	if first, again := goType(rt), goType(rt); first != again {
		t.Error("goType derives umInput again")
	}

	// Types made at run time cannot fill the cache beyond its bound.
	for i := range maxCachedGoTypes + 10 {
		st := reflect.StructOf([]reflect.StructField{{Name: "F" + strconv.Itoa(i), Type: reflect.TypeFor[int]()}})
		goType(st)
	}
	if n := goTypeCache.n.Load(); n > maxCachedGoTypes {
		t.Errorf("cache holds %d types, more than %d", n, maxCachedGoTypes)
	}
	if got := goType(reflect.StructOf([]reflect.StructField{{Name: "Late", Type: reflect.TypeFor[string]()}})); got.props["Late"] != stringType {
		t.Errorf("a type beyond the cache's bound: %v", got)
	}
}

// Conforming text costs no more than json.Unmarshal's own allocations and
// the fresh value; broken text needs the converted copy on top.
func TestUnmarshalAllocations(t *testing.T) {
	data := []byte(`{"slug":"s","tasks":[{"id":"t1","priority":2}],"ratio":0.5}`)
	std := testing.AllocsPerRun(100, func() {
		var in umInput
		_ = json.Unmarshal(data, &in)
	})
	got := testing.AllocsPerRun(100, func() {
		var in umInput
		_ = Unmarshal(data, &in)
	})
	if got > std+1 {
		t.Errorf("Unmarshal of conforming text: %v allocations, json.Unmarshal %v; want at most one more", got, std)
	}
	// And exactly those of decoding it: nothing of the pipeline, such as
	// Options moved to the heap, is paid by a call that needs no conversion.
	decode := testing.AllocsPerRun(100, func() {
		var in umInput
		_ = godecode.Into(data, reflect.ValueOf(&in), godecode.Options{MaxDepth: defaultMaxDepth})
	})
	if got != decode {
		t.Errorf("Unmarshal of conforming text: %v allocations, its decoding alone %v", got, decode)
	}
}

// Go integer fields take integer text only: a whole number written with a
// fraction or an exponent is written again as digits before decoding.
func TestUnmarshalWholeNumbersIntoIntegers(t *testing.T) {
	var v struct {
		N int     `json:"n"`
		U uint8   `json:"u"`
		F float64 `json:"f"`
		L []int   `json:"l"`
	}
	if err := Unmarshal([]byte(`{"n": 5.0, "u": 2e2, "f": 1.50, "l": [1.0, "2", 3e0]}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.N != 5 || v.U != 200 || v.F != 1.5 || fmt.Sprint(v.L) != "[1 2 3]" {
		t.Errorf("got %+v", v)
	}
	if err := Unmarshal([]byte(`{"n": 5.5}`), &v); err == nil {
		t.Error("5.5 into an int: no error")
	}
}
