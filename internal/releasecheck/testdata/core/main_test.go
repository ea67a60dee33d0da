package main

import (
	"errors"
	"reflect"
	"testing"

	"github.com/coerce-go/coerce"
	"github.com/coerce-go/coerce/coercetest"
)

// The core as a user meets it after go get: the package and coercetest, with
// the dependency coercetest brings.

func TestToDeclared(t *testing.T) {
	got, err := coerce.ToDeclared(`["go", "generics"]`, "list[str]")
	if err != nil {
		t.Fatal(err)
	}
	if want := []any{"go", "generics"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ToDeclared = %#v, want %#v", got, want)
	}
	var e *coerce.Error
	if _, err := coerce.ToDeclared("5.5", "int"); !errors.As(err, &e) {
		t.Errorf(`ToDeclared("5.5", "int"): error %v, want a *coerce.Error`, err)
	}
}

const inputSchema = `{
	"type": "object",
	"properties": {
		"query": {"type": "string"},
		"limit": {"type": "integer"},
		"tags":  {"type": "array", "items": {"type": "string"}}
	},
	"required": ["query"]
}`

func TestSchema(t *testing.T) {
	schema, err := coerce.ParseSchema([]byte(inputSchema))
	if err != nil {
		t.Fatal(err)
	}
	got, err := schema.CoerceJSON([]byte(`{"query":"go","limit":"10","tags":"[\"a\"]"}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"query":"go","limit":10,"tags":["a"]}`; string(got) != want {
		t.Errorf("CoerceJSON = %s, want %s", got, want)
	}
	coercetest.AssertRepairs(t, schema, map[string]any{
		"query": "go generics",
		"limit": 10,
		"tags":  []string{"go", "generics"},
	})
}
