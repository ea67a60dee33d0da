package coerce

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// collect returns Options that record every change, and the record.
func collect(o Options) (Options, *[]Change) {
	var got []Change
	o.OnChange = func(c Change) { got = append(got, c) }
	return o, &got
}

func TestChangeReport(t *testing.T) {
	long := strings.Repeat("é", 30) // 60 bytes: the preview stops at a character boundary
	tests := []struct {
		name     string
		value    any
		declared string
		want     []Change
	}{
		{"json text", `["1", 2]`, "list[int]", []Change{
			{Path: "", Declared: "list[integer]", Found: String, Preview: `["1", 2]`, Rule: JSONText},
			{Path: "/0", Declared: "integer", Found: String, Preview: "1", Rule: NumberFromText},
		}},
		{"double encoded", `"[1]"`, "list", []Change{{Declared: "array", Found: String, Preview: `"[1]"`, Rule: DoubleEncoded}}},
		{"fenced", "```json\n{}\n```", "dict", []Change{{Declared: "object", Found: String, Preview: "```json\n{}\n```", Rule: Fenced}}},
		{"boolean", map[string]any{"a": "yes", "b": 1.0}, "dict[str, bool]", []Change{
			{Path: "/a", Declared: "boolean", Found: String, Preview: "yes", Rule: BooleanFromText},
			{Path: "/b", Declared: "boolean", Found: Number, Preview: "1", Rule: BooleanFromNumber},
		}},
		{"null", "", "int | None", []Change{{Declared: "null", Found: String, Rule: NullFromText}}},
		{"to text", map[string]any{"a": 1.0}, "str", []Change{{Declared: "string", Found: Object, Preview: `{"a":1}`, Rule: ToJSONText}}},
		{"number to text", 5.0, "str", []Change{{Declared: "string", Found: Number, Preview: "5", Rule: NumberToText}}},
		{"long preview", long, "int | None", nil},
		{"nothing to do", []any{1.0}, "list[int]", nil},
		{"union trial discarded", []any{"1"}, "list[bool] | list[int]", []Change{{Path: "/0", Declared: "boolean", Found: String, Preview: "1", Rule: BooleanFromText}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, got := collect(Options{})
			o.ToDeclared(tc.value, tc.declared)
			if d := diff(tc.want, *got); d != "" {
				t.Errorf("changes (-want +got):\n%s", d)
			}
		})
	}
}

func TestChangeReportFailuresAreNotReported(t *testing.T) {
	o, got := collect(Options{})
	if _, err := o.ToDeclared([]any{"1", "x"}, "list[int]"); err == nil {
		t.Fatal("want an error")
	}
	if len(*got) != 0 {
		t.Errorf("a failed call reported %v", *got)
	}

	s, err := o.ParseSchema([]byte(`{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, call := range []func(){
		func() { s.Coerce(map[string]any{"a": "1", "b": "x"}) },
		func() { s.CoerceJSON([]byte(`{"a":"1","b":"x"}`)) },
	} {
		*got = nil
		call()
		want := []Change{{Path: "/a", Declared: "integer", Found: String, Preview: "1", Rule: NumberFromText}}
		if d := diff(want, *got); d != "" {
			t.Errorf("changes (-want +got):\n%s", d)
		}
	}
}

func TestChangePreviewBounded(t *testing.T) {
	o, got := collect(Options{})
	long := "[" + strings.Repeat(`"é",`, 100) + `"é"]`
	o.ToDeclared(long, "list")
	if len(*got) != 1 {
		t.Fatalf("got %v", *got)
	}
	if p := (*got)[0].Preview; len(p) > PreviewLen || !strings.HasPrefix(long, p) || len(p) < PreviewLen-3 {
		t.Errorf("preview %q: want a prefix of at most %d bytes", p, PreviewLen)
	}
}

func TestChangeReportFreeWhenUnset(t *testing.T) {
	s, err := ParseSchema([]byte(`{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"array","items":{"type":"integer"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	args := map[string]any{"a": 1.0, "b": []any{1.0, 2.0}}
	raw := []byte(`{"a":1,"b":[1,2]}`)
	checkConformingArgs(t, s, args, raw)
}

func TestLogChanges(t *testing.T) {
	var buf bytes.Buffer
	l := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	o := Options{OnChange: LogChanges(l, "search")}
	o.ToDeclared("5", "int")
	out := buf.String()
	for _, want := range []string{"level=DEBUG", "tool=search", "change.rule=number-from-text", "change.declared=integer", "change.preview=5"} {
		if !strings.Contains(out, want) {
			t.Errorf("log %q lacks %q", out, want)
		}
	}
}

func TestKindAndRuleStrings(t *testing.T) {
	for k := Invalid; k <= Union; k++ {
		if s := k.String(); s == "" || strings.HasPrefix(s, "Kind(") {
			t.Errorf("Kind %d has no name", k)
		}
	}
	for r := JSONText; r <= ViaJSON; r++ {
		if s := r.String(); strings.HasPrefix(s, "Rule(") {
			t.Errorf("Rule %d has no name", r)
		}
	}
}

func TestSchemaWithOptions(t *testing.T) {
	s, err := ParseSchema([]byte(`{"type":"object","properties":{"n":{"type":"integer"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	o, got := collect(Options{StructuredOnly: true})
	strict := s.WithOptions(o)
	if out, err := strict.Coerce(map[string]any{"n": "5"}); err == nil || out["n"] != "5" {
		t.Errorf("StructuredOnly schema converted a numeric string: %v, %v", out, err)
	}
	o.StructuredOnly = false
	if out, err := s.WithOptions(o).Coerce(map[string]any{"n": "5"}); err != nil || out["n"] != 5.0 || len(*got) != 1 {
		t.Errorf("got %v, %v, changes %v", out, err, *got)
	}
	if out, _ := s.Coerce(map[string]any{"n": "5"}); out["n"] != 5.0 {
		t.Errorf("WithOptions changed the original schema: %v", out)
	}
}
