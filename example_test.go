package coerce_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/coerce-go/coerce"
)

// An MCP client sent an array as JSON text; the tool declared an array.
func ExampleToDeclared() {
	v, err := coerce.ToDeclared(`["a", "b"]`, "list[str]")
	fmt.Printf("%#v %v\n", v, err)

	// The reverse: a workflow step parsed what the next node wants as text.
	v, err = coerce.ToDeclared(map[string]any{"channel_id": "1458059302022549698"}, "str")
	fmt.Printf("%#v %v\n", v, err)

	// Scalars drift too, and integers stay exact.
	v, err = coerce.ToDeclared("1458059302022549698", "int")
	fmt.Printf("%#v %v\n", v, err)
	// Output:
	// []interface {}{"a", "b"} <nil>
	// "{\"channel_id\":\"1458059302022549698\"}" <nil>
	// "1458059302022549698" <nil>
}

// Double-encoded and fenced JSON text is unwrapped once; prose is not dropped.
func ExampleToDeclared_unwrapping() {
	v, _ := coerce.ToDeclared(`"[{\"id\":1}]"`, "array")
	fmt.Printf("%v\n", v)

	v, _ = coerce.ToDeclared("```json\n{\"selected_files\": [\"/p1.py\"]}\n```", "dict")
	fmt.Printf("%v\n", v)

	_, err := coerce.ToDeclared("Here you go:\n```json\n{\"a\": 1}\n```", "dict")
	fmt.Println(err)
	// Output:
	// [map[id:1]]
	// map[selected_files:[/p1.py]]
	// coerce: want object, found string "Here you go:\n```json\n{\"a\": 1}\n```": wrong kind: not JSON text
}

// A value that already conforms to any member of a union is left alone: JSON
// text declared "str | None" stays text.
func ExampleToDeclared_union() {
	v, _ := coerce.ToDeclared(`{"x": 1}`, "str | None")
	fmt.Printf("%q\n", v)

	v, _ = coerce.ToDeclared(`["a"]`, "Optional[List[str]]")
	fmt.Printf("%q\n", v)
	// Output:
	// "{\"x\": 1}"
	// ["a"]
}

// What cannot be converted comes back unchanged, with an error that says
// where and why.
func ExampleError() {
	in := []any{"1", "two", 3.5}
	out, err := coerce.ToDeclared(in, "list[int]")
	fmt.Println(out)
	fmt.Println(err)

	var e *coerce.Error
	if errors.As(err, &e) {
		fmt.Println(e.Path, errors.Is(err, coerce.ErrSyntax), errors.Is(err, coerce.ErrPrecision))
	}
	// Output:
	// [1 two 3.5]
	// coerce: /1: want integer, found string "two": invalid syntax: not a number
	// coerce: /2: want integer, found number 3.5: would lose precision: not a whole number
	// /1 true true
}

func ExampleOptions() {
	// UseNumber: every number coercion produces is a json.Number.
	v, _ := coerce.Options{UseNumber: true}.ToDeclared("[1, 2.5]", "list[float]")
	fmt.Printf("%#v\n", v)

	// StructuredOnly: only JSON text <-> object/array; scalars are left to
	// the validator.
	_, err := coerce.Options{StructuredOnly: true}.ToDeclared("5", "int")
	fmt.Println(err)

	// WrapScalars: a single value declared array becomes a one-element array.
	v, _ = coerce.Options{WrapScalars: true}.ToDeclared("a.go", "list[str]")
	fmt.Printf("%#v\n", v)
	// Output:
	// []interface {}{"1", "2.5"}
	// coerce: want integer, found string "5": wrong kind
	// []interface {}{"a.go"}
}

func ExampleParseType() {
	for _, decl := range []string{"List[int]", "Optional[Dict[str, Any]]", "map[string][]float64", "dict | str", "strng"} {
		t, err := coerce.ParseType(decl)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s -> %s (%s)\n", decl, t, t.Kind())
	}
	// Output:
	// List[int] -> list[integer] (array)
	// Optional[Dict[str, Any]] -> object | null (union)
	// map[string][]float64 -> dict[string, list[number]] (object)
	// dict | str -> object | string (union)
	// coerce: unknown type: "strng"
}

func ExampleToType() {
	tags := coerce.MustParseType("list[str]")
	v, err := coerce.ToType(`["go", "json"]`, tags)
	fmt.Println(v, err)
	// Output:
	// [go json] <nil>
}

func ExampleType_Conforms() {
	t := coerce.MustParseType("dict[str, list[int]]")
	fmt.Println(t.Conforms(map[string]any{"a": []any{1.0, 2.0}}))
	fmt.Println(t.Conforms(map[string]any{"a": "[1, 2]"}))
	// Output:
	// true
	// false
}

// An MCP tool's input schema, and the arguments a client really sent.
func ExampleParseSchema() {
	schema, err := coerce.ParseSchema([]byte(`{
		"type": "object",
		"properties": {
			"group_by": {"type": "array", "items": {"type": "string"}},
			"limit": {"type": "integer"},
			"path_params": {"type": "string"}
		}
	}`))
	if err != nil {
		panic(err)
	}
	args := map[string]any{
		"group_by":    `["type"]`,
		"limit":       "10",
		"path_params": map[string]any{"channel_id": "1458059302022549698"},
		"unknown":     "passes through",
	}
	out, err := schema.Coerce(args)
	fmt.Println(err)
	fmt.Printf("%#v\n", out["group_by"])
	fmt.Printf("%#v\n", out["limit"])
	fmt.Printf("%#v\n", out["path_params"])
	fmt.Printf("%#v\n", out["unknown"])
	// Output:
	// <nil>
	// []interface {}{"type"}
	// 10
	// "{\"channel_id\":\"1458059302022549698\"}"
	// "passes through"
}

// One parameter failing does not hold back the others.
func ExampleSchema_Coerce() {
	schema, _ := coerce.SchemaFromTypes(map[string]string{"a": "int", "b": "int"})
	out, err := schema.Coerce(map[string]any{"a": "1", "b": "x"})
	fmt.Printf("%#v %#v\n", out["a"], out["b"])
	fmt.Println(err)
	// Output:
	// 1 "x"
	// coerce: /b: want integer, found string "x": invalid syntax: not a number
}

// CoerceJSON rewrites only what needs it: the big integer, the key order and
// the spacing of the rest survive byte for byte.
func ExampleSchema_CoerceJSON() {
	schema, _ := coerce.ParseSchema([]byte(`{"properties": {"tags": {"type": "array"}}}`))
	out, err := schema.CoerceJSON([]byte(`{"id": 1458059302022549698, "tags": "[\"a\"]",  "z": 1.50}`))
	fmt.Println(string(out), err)
	// Output:
	// {"id": 1458059302022549698, "tags": ["a"],  "z": 1.50} <nil>
}

// A workflow node's declared parameter types.
func ExampleSchemaFromTypes() {
	schema, err := coerce.SchemaFromTypes(map[string]string{
		"path_params": "str",
		"items":       "list[dict]",
	})
	if err != nil {
		panic(err)
	}
	out, _ := schema.Coerce(map[string]any{
		"path_params": map[string]any{"channel_id": "1"},
		"items":       `[{"id": 1}]`,
	})
	fmt.Printf("%#v\n%v\n", out["path_params"], out["items"])

	_, err = coerce.SchemaFromTypes(map[string]string{"a": "strng", "b": "list["})
	fmt.Println(err)
	// Output:
	// "{\"channel_id\":\"1\"}"
	// [map[id:1]]
	// coerce: /a: unknown type: "strng"
	// coerce: /b: invalid syntax: want a type name, found end in "list["
}

// A node that takes a typed Go input.
func ExampleSchemaFor() {
	type Task struct {
		ID    int      `json:"id"`
		Files []string `json:"files"`
	}
	type Input struct {
		Tasks []Task `json:"tasks"`
		Note  *string
	}
	schema, _ := coerce.SchemaFor[Input]()
	t, _ := schema.Lookup("tasks")
	fmt.Println(t)

	out, _ := schema.Coerce(map[string]any{"tasks": `[{"id": "1", "files": "[\"a.go\"]"}]`})
	var in Input
	text, _ := json.Marshal(out)
	fmt.Println(json.Unmarshal(text, &in), in.Tasks)
	// Output:
	// list[Task]
	// <nil> [{1 [a.go]}]
}

func ExampleSchema_Lookup() {
	schema, _ := coerce.ParseSchema([]byte(`{"properties": {"tags": {"type": ["null", "array"], "items": {"type": "string"}}}}`))
	t, ok := schema.Lookup("tags")
	fmt.Println(t, ok)
	_, ok = schema.Lookup("other")
	fmt.Println(ok)
	// Output:
	// null | list[string] true
	// false
}

// An agent's reply and an LLM's positional arguments have no declared type:
// only object or array text becomes structure.
func ExampleStructured() {
	for _, s := range []string{"```json\n{\"selected_files\": [\"/p1.py\"]}\n```", `{"id": "x"}`, "123", "true", "hello"} {
		v, ok := coerce.Structured(s)
		fmt.Printf("%-5v %#v\n", ok, v)
	}
	// Output:
	// true  map[string]interface {}{"selected_files":[]interface {}{"/p1.py"}}
	// true  map[string]interface {}{"id":"x"}
	// false <nil>
	// false <nil>
	// false <nil>
}

// A server counts and logs how clients break arguments: OnChange receives
// each conversion with its path, what was found and the rule applied.
func ExampleOptions_onChange() {
	opts := coerce.Options{OnChange: func(c coerce.Change) {
		fmt.Printf("%s: %s %q -> %s (%s)\n", c.Path, c.Found, c.Preview, c.Declared, c.Rule)
	}}
	schema, err := opts.ParseSchema([]byte(`{"type": "object", "properties": {
		"ids": {"type": "array", "items": {"type": "integer"}},
		"verbose": {"type": "boolean"}}}`))
	if err != nil {
		panic(err)
	}
	schema.CoerceJSON([]byte(`{"ids": "[\"7\", 8]", "verbose": "yes"}`))
	// Output:
	// /ids: string "[\"7\", 8]" -> list[integer] (json-text)
	// /ids/0: string "7" -> integer (number-from-text)
	// /verbose: string "yes" -> boolean (boolean-from-text)
}

// A tool's typed input, as a client sent it: the list as JSON text, the
// number and the boolean as strings. json.Unmarshal fails on it;
// coerce.Unmarshal converts each to what the field wants, then decodes.
func ExampleUnmarshal() {
	type Task struct {
		ID    string   `json:"id"`
		Files []string `json:"files"`
	}
	type Input struct {
		Tasks  []Task `json:"tasks"`
		Limit  int    `json:"limit"`
		DryRun bool   `json:"dry_run"`
	}
	args := []byte(`{"tasks": "[{\"id\": \"t1\", \"files\": [\"a.go\"]}]", "limit": "10", "dry_run": "true"}`)

	var in Input
	fmt.Println(json.Unmarshal(args, &in))

	in = Input{}
	err := coerce.Unmarshal(args, &in)
	fmt.Printf("%v %+v\n", err, in)
	// Output:
	// json: cannot unmarshal string into Go struct field Input.tasks of type []coerce_test.Task
	// <nil> {Tasks:[{ID:t1 Files:[a.go]}] Limit:10 DryRun:true}
}

// Payload has its own UnmarshalJSON in the "type Alias T" idiom. Its
// fields still declare the shape, so a list that a workflow engine
// stringified twice on the way is converted before UnmarshalJSON runs.
func ExampleUnmarshal_aliasIdiom() {
	data := []byte(`{"slug": "rate-limits", "tasks": "\"[{\\\"id\\\": \\\"t1\\\"}]\""}`)

	var p Payload
	fmt.Println(json.Unmarshal(data, &p))

	p = Payload{}
	err := coerce.Unmarshal(data, &p)
	fmt.Printf("%v %+v\n", err, p)
	// Output:
	// json: cannot unmarshal string into Go struct field Alias.tasks of type []coerce_test.PayloadTask
	// <nil> {Slug:rate-limits Tasks:[{ID:t1}]}
}

type PayloadTask struct {
	ID string `json:"id"`
}

type Payload struct {
	Slug  string        `json:"slug"`
	Tasks []PayloadTask `json:"tasks"`
}

func (p *Payload) UnmarshalJSON(data []byte) error {
	type Alias Payload
	if err := json.Unmarshal(data, (*Alias)(p)); err != nil {
		return err
	}
	if p.Slug == "" {
		return errors.New("payload without a slug")
	}
	return nil
}

// What cannot be converted is an error with the JSON Pointer of each
// value, and nothing is stored: defaults set before the call stay.
func ExampleUnmarshal_errors() {
	type Config struct {
		Host    string `json:"host"`
		Port    int    `json:"port"`
		Retries []int  `json:"retries"`
	}
	cfg := Config{Host: "localhost", Port: 8080}
	err := coerce.Unmarshal([]byte(`{"host": "example.com", "port": "http", "retries": "[1, 2.5]"}`), &cfg)
	fmt.Println(err)
	fmt.Printf("%+v\n", cfg)

	err = coerce.Unmarshal([]byte(`{"host": "example.com", "retries": "[1, 2]"}`), &cfg)
	fmt.Printf("%v %+v\n", err, cfg)
	// Output:
	// coerce: /port: want integer, found string "http": invalid syntax: not a number
	// coerce: /retries/1: want integer, found number 2.5: would lose precision: not a whole number
	// {Host:localhost Port:8080 Retries:[]}
	// <nil> {Host:example.com Port:8080 Retries:[1 2]}
}

// Options.Unmarshal reports each conversion to OnChange once the value is
// decoded, so that a server can log how its clients break arguments.
func ExampleOptions_Unmarshal() {
	opts := coerce.Options{OnChange: func(c coerce.Change) {
		fmt.Printf("%s: %s -> %s (%s)\n", c.Path, c.Found, c.Declared, c.Rule)
	}}
	var in struct {
		ChannelID int64 `json:"channel_id"`
		Notify    *bool `json:"notify"`
	}
	err := opts.Unmarshal([]byte(`{"channel_id": "1458059302022549698", "notify": ""}`), &in)
	fmt.Println(err, in.ChannelID, in.Notify)
	// Output:
	// /channel_id: string -> integer (number-from-text)
	// /notify: string -> null (null-from-text)
	// <nil> 1458059302022549698 <nil>
}

// A tool call's arguments as a model streams them: a preview after each
// delta for the UI, and the call itself only from Close.
func ExampleSchema_Stream() {
	schema, _ := coerce.ParseSchema([]byte(`{"type": "object",
		"properties": {"path": {"type": "string"}, "limit": {"type": "integer"}}}`))
	st := schema.Stream()
	for _, delta := range []string{`{"path": "src/ma`, `in.go", "lim`, `it": "10"`, `}`} {
		st.Write([]byte(delta))
		p := st.Preview()
		fmt.Printf("%v open: %q\n", p.Args, p.Open)
	}
	args, err := st.Close()
	fmt.Println(string(args), err)

	// Cut off by the model's output limit: never a call.
	st = schema.Stream()
	st.Write([]byte(`{"path": "src/main.go", "limit": 1`))
	_, err = st.Close()
	fmt.Println(errors.Is(err, coerce.ErrTruncated))
	// Output:
	// map[path:src/ma] open: ["" "/path"]
	// map[path:src/main.go] open: [""]
	// map[limit:10 path:src/main.go] open: [""]
	// map[limit:10 path:src/main.go] open: []
	// {"path": "src/main.go", "limit": 10} <nil>
	// true
}
