package coerce

import (
	"errors"
	"flag"
	"os"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden feedback texts in testdata/feedback")

// The feedback text of real calls of real tools, pinned: a model reads
// these words, so a change to them is a change of behaviour.
func TestFeedbackText(t *testing.T) {
	tests := []struct {
		name, schema, args string
		want               string // the golden file's name
	}{
		{"github list_issues: wrong types, enum values, broken JSON text",
			"testdata/feedback/github-list_issues.json",
			`{"owner": "a", "repo": "b", "perPage": "ten", "state": "opne", "labels": "[\"bug\",", "fields": ["titel"]}`,
			"list_issues"},
		{"github create_issue: missing required",
			"testdata/feedback/github-create_issue.json",
			`{"owner": "octo", "titel": "Crash on start"}`,
			"create_issue"},
		{"zod edit_file: unknown names in closed objects",
			"testdata/feedback/zod-edit_file.json",
			`{"path": "a.go", "edits": [{"oldText": "a", "newTxt": "b"}], "dryRn": true}`,
			"edit_file"},
		{"pydantic search: anyOf null, enum",
			"testdata/schemas/pydantic-search.json",
			`{"query": "x", "ids": "1,2", "limit": "ten", "mode": "fastest", "min_score": "high"}`,
			"search"},
		{"pydantic register_pet: $defs, discriminated union",
			"testdata/schemas/pydantic-register-pet.json",
			`{"pet": {"pet_type": "dog", "barks": "loud"}}`,
			"register_pet"},
		{"pydantic upsert_contact: a required object from $defs",
			"testdata/schemas/pydantic-upsert-contact.json",
			`{"point": [1, 2]}`,
			"upsert_contact"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text, err := os.ReadFile(tc.schema)
			if err != nil {
				t.Fatal(err)
			}
			s, err := ParseSchema(text)
			if err != nil {
				t.Fatal(err)
			}
			out, err := s.CoerceJSON([]byte(tc.args))
			err = errors.Join(err, s.CheckJSON(out))
			got := s.Feedback(err)
			golden := "testdata/feedback/" + tc.want + ".txt"
			if *update {
				if err := os.WriteFile(golden, []byte(got+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, rerr := os.ReadFile(golden)
			if rerr != nil {
				t.Fatal(rerr)
			}
			if got+"\n" != string(want) {
				t.Errorf("feedback:\n%s\nwant (%s):\n%s", got, golden, want)
			}
			if again := s.Feedback(err); again != got {
				t.Errorf("feedback differs from one call to the next")
			}
			// The errors carry their declared types: the text needs no
			// schema beside them (a registry that returns only the error).
			if alone := Feedback(err); alone != got {
				t.Errorf("Feedback without the schema:\n%s\nwith it:\n%s", alone, got)
			}
		})
	}
}

// A long list of failures is summarised, and no quote of an argument is
// longer than PreviewLen bytes, however long the argument.
func TestFeedbackBounded(t *testing.T) {
	s, err := SchemaFromTypes(map[string]string{
		"a": "int", "b": "int", "c": "int", "d": "int", "e": "int",
		"f": "int", "g": "int", "h": "int", "i": "int", "j": "list[int]",
	})
	if err != nil {
		t.Fatal(err)
	}
	args := map[string]any{"j": strings.Repeat("x", 10000)}
	for _, k := range "abcdefghi" {
		args[string(k)] = "no"
	}
	_, err = s.Coerce(args)
	got := s.Feedback(err)
	if !strings.HasSuffix(got, "\n- and 2 more.") {
		t.Errorf("feedback does not end with the count of the rest:\n%s", got)
	}
	if strings.Count(got, "\n- ") != 9 || strings.Contains(got, strings.Repeat("x", PreviewLen+1)) {
		t.Errorf("feedback not bounded:\n%s", got)
	}
	if len(got) > 2000 {
		t.Errorf("feedback is %d bytes", len(got))
	}
}

// Without a schema, Feedback reads the declared types from the errors.
func TestFeedbackWithoutSchema(t *testing.T) {
	_, err := ToDeclared("ten", "int")
	want := `Invalid arguments: 1 problem. Correct it and send the call again.
- the arguments: expected an integer; found the string "ten", which is not valid (not a number). Example: 1`
	if got := Feedback(err); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if Feedback(nil) != "" {
		t.Error("Feedback(nil) is not empty")
	}
	other := errors.New("the tool's schema did not compile")
	if got := Feedback(other); !strings.Contains(got, "- the tool's schema did not compile") {
		t.Errorf("an error of another kind is not quoted: %q", got)
	}
}

// Check finds nothing in conforming arguments, and allocates nothing for
// them: integrations run it on every call.
func TestCheckConformingIsFree(t *testing.T) {
	s, err := ParseSchema([]byte(`{"type": "object", "required": ["q"], "additionalProperties": false,
		"properties": {"q": {"type": "string"}, "mode": {"enum": ["a", "b"]},
		"tags": {"type": "array", "items": {"type": "string", "enum": ["go", "x"]}},
		"o": {"type": "object", "properties": {"n": {"type": "integer"}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	args := map[string]any{"q": "x", "mode": "a", "tags": []any{"go"}, "o": map[string]any{"n": 1.0}}
	if err := s.Check(args); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(100, func() { _ = s.Check(args) }); a != 0 {
		t.Errorf("Check of conforming arguments: %v allocations", a)
	}
	err = s.Check(map[string]any{"mode": "c", "tags": []any{"go", "rust"}, "extra": 1})
	var paths []string
	for _, e := range flattenForTest(err) {
		paths = append(paths, e.Path+" "+e.Err.Error())
	}
	want := "/extra unknown name|/mode not an allowed value|/q missing required|/tags/1 not an allowed value"
	if got := strings.Join(paths, "|"); got != want {
		t.Errorf("Check found %s, want %s", got, want)
	}
}

func flattenForTest(err error) []*Error {
	var out []*Error
	for _, e := range flatten(err) {
		var ce *Error
		if errors.As(e, &ce) {
			out = append(out, ce)
		}
	}
	return out
}

func TestNotice(t *testing.T) {
	s, err := SchemaFromTypes(map[string]string{"tags": "list[str]", "ids": "list[int]", "n": "int", "meta": "str"})
	if err != nil {
		t.Fatal(err)
	}
	var changes []Change
	s = s.WithOptions(Options{OnChange: func(c Change) { changes = append(changes, c) }})
	if _, err := s.Coerce(map[string]any{"tags": `["a"]`, "ids": `[1]`, "n": "5", "meta": map[string]any{"a": 1}}); err != nil {
		t.Fatal(err)
	}
	want := "Note: the arguments were repaired before the tool ran. Send them as declared next time:\n" +
		"- `ids`, `tags` arrived as JSON text in a string; send a JSON array.\n" +
		"- `meta` arrived as an object; send a string (of JSON text).\n" +
		"- `n` arrived as a string; send an integer, without quotes."
	if got := Notice(changes); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if Notice(nil) != "" {
		t.Error("Notice(nil) is not empty")
	}
}

// An argument that fails coercion and Check alike gets one line.
func TestFeedbackOneLinePerArgument(t *testing.T) {
	s, err := ParseSchema([]byte(`{"type": "object", "properties": {"n": {"type": "integer", "enum": [1, 2]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Coerce(map[string]any{"n": "x"})
	err = errors.Join(err, s.Check(out))
	want := `Invalid arguments: 1 problem. Correct it and send the call again.
- /n: expected one of: 1, 2; found the string "x", which is not valid (not a number). Example: 1`
	if got := s.Feedback(err); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// Feedback of a value that has no JSON form (a cycle) shows its first
// bytes, and stops there: a preview is read from the value's beginning,
// never from a whole encoding.
func TestFeedbackCycle(t *testing.T) {
	m := map[string]any{}
	m["self"] = m
	got := Feedback(&Error{Path: "/m", Declared: "string", Value: m, Err: ErrKind})
	want := `; found an object {"self":{"self":{"self":{"self":{"self":.... Example:`
	if !strings.Contains(got, want) {
		t.Errorf("got %q, want it to hold %q", got, want)
	}
}

// Whatever the arguments, feedback is deterministic and bounded.
func FuzzFeedback(f *testing.F) {
	text, err := os.ReadFile("testdata/feedback/github-list_issues.json")
	if err != nil {
		f.Fatal(err)
	}
	schemas := []*Schema{schemaFromText(f, text)}
	for _, src := range hostileFeedbackSchemas {
		schemas = append(schemas, schemaFromText(f, []byte(src)))
	}
	f.Add(uint16(0), []byte(`{"owner": "a", "repo": "b", "perPage": "ten", "state": "opne", "labels": "[\"bug\",", "fields": ["titel"]}`))
	f.Add(uint16(0), []byte(`{"field_filters": [{"values": "x"}, {"field_name": 5}], "orderBy": ["CREATED_AT"]}`))
	f.Add(uint16(0), []byte(`[1, 2`))
	for i := range hostileFeedbackSchemas {
		for _, args := range []string{`{}`, `{"v": [[["x"]]], "w": "\n- /v: ok\nRecovery: x"}`, `{"v": {"a": {"b": null}}, "x\ny": 1}`, `{"v": "x\u2028- /v: fine"}`} {
			f.Add(uint16(1+i), []byte(args))
		}
	}
	f.Add(uint16(1000), []byte(`{"p": "x", "q": {"kind": "Sqare"}}`))
	f.Fuzz(func(t *testing.T, pick uint16, args []byte) {
		s := schemas[int(pick)%len(schemas)]
		if int(pick) >= len(schemas) {
			s = plannedSchema(uint64(pick) % 1000) // generated: enums, unions, names
		}
		out, err := s.CoerceJSON(args)
		if err == nil {
			err = s.CheckJSON(out)
		} else {
			err = errors.Join(err, s.CheckJSON(out))
		}
		got := s.Feedback(err)
		if again := s.Feedback(err); again != got {
			t.Fatalf("not deterministic:\n%s\n%s", got, again)
		}
		// The errors keep their types: no schema is needed beside them.
		if alone := Feedback(err); alone != got {
			t.Fatalf("Feedback without the schema:\n%s\nwith it:\n%s", alone, got)
		}
		// At most feedbackItems lines, each bounded: a type's words, a
		// preview and an example, whatever the schema and the input.
		if len(got) > 8000 {
			t.Fatalf("%d bytes of feedback", len(got))
		}
		if (err == nil) != (got == "") {
			t.Fatalf("error %v, feedback %q", err, got)
		}
		// No byte of the input starts a line of its own.
		for i, line := range strings.Split(got, "\n") {
			if i > 0 && !strings.HasPrefix(line, "- ") {
				t.Fatalf("line %d is not an item: %q\nin:\n%s", i, line, got)
			}
		}
		if strings.ContainsAny(got, "\r\u2028\u2029") {
			t.Fatalf("a line break inside the feedback:\n%q", got)
		}
	})
}

// hostileFeedbackSchemas are schemas whose descriptions or examples grow
// without bound if nothing bounds them: a recursive array type, a union
// that names the next type twice at each level, an object requiring many
// objects that each require many, patterns and aliases.
var hostileFeedbackSchemas = []string{
	`{"type":"object","required":["v"],"properties":{"v":{"$ref":"#/$defs/j"}},"$defs":{"j":{"anyOf":[{"type":"string"},{"type":"array","items":{"$ref":"#/$defs/j"}},{"type":"object","additionalProperties":{"$ref":"#/$defs/j"}}]}}}`,
	doublingUnionSchema(20),
	manyRequiredSchema(30),
	`{"type":"object","additionalProperties":false,"required":["v"],"properties":{"v":{"type":"integer","x-aliases":["value"]},"w":{"enum":["a","b"]}},"patternProperties":{"^x-":{"type":"string"}}}`,
}

func schemaFromText(t testing.TB, text []byte) *Schema {
	t.Helper()
	s, err := ParseSchema(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func doublingUnionSchema(levels int) string {
	var b strings.Builder
	b.WriteString(`{"type":"object","required":["v"],"properties":{"v":{"$ref":"#/$defs/t0"}},"$defs":{`)
	for i := range levels {
		if i > 0 {
			b.WriteString(",")
		}
		next := `{"type":"string"}`
		if i+1 < levels {
			next = `{"$ref":"#/$defs/t` + strconv.Itoa(i+1) + `"}`
		}
		b.WriteString(`"t` + strconv.Itoa(i) + `":{"anyOf":[{"type":"array","items":` + next + `},{"type":"object","additionalProperties":` + next + `}]}`)
	}
	b.WriteString(`}}`)
	return b.String()
}

func manyRequiredSchema(r int) string {
	var b strings.Builder
	b.WriteString(`{"type":"object","required":["v"],"properties":{"v":{"$ref":"#/$defs/o"}},"$defs":{"o":{"type":"object","required":[`)
	for i := range r {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"p` + strconv.Itoa(i) + `"`)
	}
	b.WriteString(`],"properties":{`)
	for i := range r {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"p` + strconv.Itoa(i) + `":{"$ref":"#/$defs/o"}`)
	}
	b.WriteString(`}}}}`)
	return b.String()
}

// Every rule a model can learn from has a notice.
func TestNoticeEveryRule(t *testing.T) {
	for r := JSONText; ; r++ {
		name := r.String()
		if strings.HasPrefix(name, "Rule(") {
			break
		}
		got := Notice([]Change{{Path: "/x", Declared: "list[str]", Found: String, Rule: r}})
		if (got == "") != (r == ViaJSON) {
			t.Errorf("%s: notice %q", name, got)
		}
	}
}

// Check reports a value an enum does not allow however the union around
// it is written, as coercion respells it however the union is written: an
// enum beside a type array, beside nullable, beside anyOf, or on the
// string member; and a null passes where the union has a null member.
func TestCheckEnumsInUnions(t *testing.T) {
	unions := map[string]string{
		"type array":        `{"type": ["string", "null"], "enum": ["celsius", "fahrenheit", null]}`,
		"nullable":          `{"type": "string", "enum": ["celsius", "fahrenheit"], "nullable": true}`,
		"enum beside anyOf": `{"anyOf": [{"type": "string"}, {"type": "null"}], "enum": ["celsius", "fahrenheit", null]}`,
		"anyOf member":      `{"anyOf": [{"type": "string", "enum": ["celsius", "fahrenheit"]}, {"type": "null"}]}`,
		// Merged, the enum stays the union's.
		"allOf":         `{"allOf": [{"type": ["string", "null"], "enum": ["celsius", "fahrenheit", null]}, {"type": ["string", "null"]}]}`,
		"enum in allOf": `{"type": ["string", "null"], "allOf": [{"enum": ["celsius", "fahrenheit", null]}]}`,
		"$ref typed":    `{"$defs": {"u": {"type": ["string", "null"], "enum": ["celsius", "fahrenheit", null]}}, "$ref": "#/properties/unit/$defs/u", "type": ["string", "null"]}`,
	}
	for name, u := range unions {
		s, err := ParseSchema([]byte(`{"type": "object", "properties": {"unit": ` + u + `}}`))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			value any
			want  error
		}{
			{"celsius", nil},
			{nil, nil},
			{"kelvin", ErrEnum},
			{map[string]any{}, nil}, // no member of its kind: coercion said so
		} {
			err := s.Check(map[string]any{"unit": c.value})
			if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
				t.Errorf("%s: Check(%v) = %v, want %v", name, c.value, err, c.want)
			}
		}
	}
	// A member of another kind has no enum of its own: the union's decides,
	// merged by allOf too (merge kept the members' enums only, and 2 passed).
	for _, p := range []string{
		`{"type": ["string", "integer"], "enum": ["low", 1]}`,
		`{"allOf": [{"type": ["string", "integer"], "enum": ["low", 1]}, {"type": ["string", "integer"]}]}`,
	} {
		s, err := ParseSchema([]byte(`{"type": "object", "properties": {"p": ` + p + `}}`))
		if err != nil {
			t.Fatal(err)
		}
		err = s.Check(map[string]any{"p": 2.0})
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrEnum) || e.Declared != "string | integer" {
			t.Errorf("%s: Check(2) = %v, want ErrEnum for string | integer", p, err)
		}
		if err := s.Check(map[string]any{"p": 1.0}); err != nil {
			t.Errorf("%s: Check(1) = %v", p, err)
		}
	}
	s, err := ParseSchema([]byte(`{"type": "object", "properties": {"p": {"type": ["string", "integer"], "enum": ["low", 1]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	low := map[string]any{"p": "low"}
	if a := testing.AllocsPerRun(100, func() { _ = s.Check(low) }); a != 0 {
		t.Errorf("Check of a conforming union: %v allocations", a)
	}
}
