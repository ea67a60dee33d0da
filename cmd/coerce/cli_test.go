package main

import (
	"strings"
	"testing"
)

// TestCommands runs args, json and value as a shell would, and checks the
// three things a script sees: the exit status, stdout, and stderr.
func TestCommands(t *testing.T) {
	const feedbackHead = "Invalid arguments: 1 problem. Correct it and send the call again.\n"
	for _, tc := range []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stdout string // exact
		stderr string // contained; "" for an empty stderr
	}{
		// args: each VALUE read as its declared type.
		{"args types", []string{"args", "--schema", "search.schema.json", "query=5", "limit=5", "exact=yes", "tags=a"},
			"", 0, `{"exact":true,"limit":5,"query":"5","tags":["a"]}` + "\n", ""},
		{"args JSON text for an array", []string{"args", "--schema", "search.schema.json", "query=x", `tags=["a","b"]`},
			"", 0, `{"query":"x","tags":["a","b"]}` + "\n", ""},
		{"args repeated array key", []string{"args", "--schema", "search.schema.json", "query=x", "tags=a", "tags=b,c"},
			"", 0, `{"query":"x","tags":["a","b,c"]}` + "\n", ""},
		{"args KEY:=JSON", []string{"args", "--schema", "search.schema.json", "query:=7", `tags:=["a"]`, "limit:=12345678901234567890"},
			"", 0, `{"limit":12345678901234567890,"query":"7","tags":["a"]}` + "\n", ""},
		{"args dotted key", []string{"args", "--schema", "search.schema.json", "query=x", "filter.max=3", "filter.since=2026"},
			"", 0, `{"filter":{"max":3,"since":"2026"},"query":"x"}` + "\n", ""},
		{"args a name with a dot", []string{"args", "--schema", "search.schema.json", "file.name=a.txt"},
			"", 0, `{"file.name":"a.txt"}` + "\n", ""},
		{"args object given whole", []string{"args", "--schema", "search.schema.json", `filter={"max":"3"}`},
			"", 0, `{"filter":{"max":3}}` + "\n", ""},
		{"args no pairs", []string{"args", "--schema", "search.schema.json"},
			"", 0, "{}\n", ""},
		{"args from a tool", []string{"args", "--schema", "search.tool.json", "limit=5"},
			"", 0, `{"limit":5}` + "\n", ""},
		{"args from tools/list", []string{"args", "--schema", "tools-list.json", "--tool", "echo", "message=5"},
			"", 0, `{"message":"5"}` + "\n", ""},
		{"args verbose", []string{"args", "-v", "--schema", "search.schema.json", "limit=5"},
			"", 0, `{"limit":5}` + "\n", "coerce: /limit: string \"5\" to integer (number-from-text)\n"},
		{"args no wrapping", []string{"args", "-wrap-scalars=false", "--schema", "search.schema.json", "tags=a"},
			"", 1, "", "/tags: expected an array"},
		{"args unfixable", []string{"args", "--schema", "search.schema.json", "limit=five"},
			"", 1, "", feedbackHead + "- /limit: expected an integer"},
		{"args check", []string{"args", "-check", "--schema", "search.schema.json", "limit=5"},
			"", 1, "", "query"},
		{"args undeclared", []string{"args", "--schema", "search.schema.json", "qeury=x"},
			"", 2, "", "qeury: the schema declares no such parameter (it declares exact, file.name, filter, limit, order, query, tags)"},
		{"args undeclared nested", []string{"args", "--schema", "search.schema.json", "filter.until=x"},
			"", 2, "", `filter.until: "until" is not declared there (the properties are max, since)`},
		{"args dotted scalar", []string{"args", "--schema", "search.schema.json", "limit.x=1"},
			"", 2, "", "limit.x: limit is declared integer, which has no properties"},
		{"args twice", []string{"args", "--schema", "search.schema.json", "limit=1", "limit=2"},
			"", 2, "", "limit is given twice, and is declared integer, not an array"},
		{"args whole and by parts", []string{"args", "--schema", "search.schema.json", "filter={}", "filter.max=1"},
			"", 2, "", "filter.max: filter is given whole and by its properties"},
		{"args not a pair", []string{"args", "--schema", "search.schema.json", "limit"},
			"", 2, "", `"limit" is not KEY=VALUE`},
		{"args bad JSON", []string{"args", "--schema", "search.schema.json", "tags:=[a"},
			"", 2, "", "tags:=[a: not one JSON value"},
		{"args no schema", []string{"args", "limit=5"},
			"", 2, "", "--schema FILE is required"},
		{"args tools/list without --tool", []string{"args", "--schema", "tools-list.json", "message=5"},
			"", 2, "", "name a tool with --tool (one of echo, search)"},
		{"args unknown tool", []string{"args", "--schema", "tools-list.json", "--tool", "nope"},
			"", 2, "", `no tool "nope" (the tools are echo, search)`},
		{"args missing file", []string{"args", "--schema", "nope.json"},
			"", 2, "", "nope.json: no such file"},
		{"args unknown flag", []string{"args", "-bogus"},
			"", 2, "", "flag provided but not defined: -bogus\nusage: coerce args"},
		{"args help", []string{"args", "-h"},
			"", 0, "", "usage: coerce args --schema FILE"},

		// json: stdin to stdout, untouched bytes kept.
		{"json repairs", []string{"json", "--schema", "search.schema.json"},
			`{"query": {"q": 1},  "tags": "[\"a\"]", "limit": "5"}` + "\n", 0,
			`{"query": "{\"q\":1}",  "tags": ["a"], "limit": 5}` + "\n",
			"coerce: /limit: string \"5\" to integer (number-from-text)\ncoerce: /query: object \"{\\\"q\\\":1}\" to string (to-json-text)\ncoerce: /tags: string \"[\\\"a\\\"]\" to list[string] (json-text)\n"},
		{"json conforming is byte for byte", []string{"json", "--schema", "search.schema.json"},
			"{ \"limit\" : 5.0e0 ,\"tags\":[ \"a\" ]}", 0, "{ \"limit\" : 5.0e0 ,\"tags\":[ \"a\" ]}", ""},
		{"json quiet", []string{"json", "-q", "--schema", "search.schema.json"},
			`{"limit":"5"}`, 0, `{"limit":5}`, ""},
		{"json unfixable", []string{"json", "--schema", "search.schema.json"},
			`{"limit":"five"}`, 1, "", feedbackHead + "- /limit: expected an integer"},
		{"json not an object", []string{"json", "--schema", "search.schema.json"},
			`[1]`, 1, "", "arguments"},
		{"json check enum", []string{"json", "-check", "--schema", "search.schema.json"},
			`{"query":"x","order":"up"}`, 1, "", "/order"},
		{"json stray argument", []string{"json", "--schema", "search.schema.json", "x"},
			"", 2, "", `unexpected argument "x"`},

		// value: ToDeclared for one value.
		{"value list of int", []string{"value", "list[int]", `"[1,2]"`}, "", 0, "[1,2]\n", ""},
		{"value bare word", []string{"value", "list[str]", "a"}, "", 1, "", "expected an array"},
		{"value int from text", []string{"value", "int", `"5"`}, "", 0, "5\n", ""},
		{"value int bare", []string{"value", "int", "5"}, "", 0, "5\n", ""},
		{"value str from object", []string{"value", "str", `{"b":1,"a":2}`}, "", 0, `"{\"a\":2,\"b\":1}"` + "\n", ""},
		{"value str stays", []string{"value", "str", "hello"}, "", 0, `"hello"` + "\n", ""},
		{"value big integer", []string{"value", "int", `"12345678901234567890"`}, "", 0, "12345678901234567890\n", ""},
		{"value precision", []string{"value", "int", "5.5"}, "", 1, "", "expected an integer"},
		{"value bad type", []string{"value", "lst[int", "1"}, "", 2, "", "coerce value:"},
		{"value one argument", []string{"value", "int"}, "", 2, "", "want TYPE VALUE, got 1 arguments"},

		// The command itself.
		{"no command", nil, "", 2, "", "usage: coerce <command>"},
		{"unknown command", []string{"frob"}, "", 2, "", `unknown command "frob"`},
		{"help", []string{"-h"}, "", 0, "", "usage: coerce <command>"},
		{"mcp without server", []string{"mcp"}, "", 2, "", "no server"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := runCoerce(t, tc.stdin, tc.args...)
			if got.code != tc.code {
				t.Errorf("exit status %d, want %d\nstderr: %s", got.code, tc.code, got.stderr)
			}
			if got.stdout != tc.stdout {
				t.Errorf("stdout\n%q\nwant\n%q", got.stdout, tc.stdout)
			}
			if tc.stderr == "" && got.stderr != "" || !strings.Contains(got.stderr, tc.stderr) {
				t.Errorf("stderr\n%s\nwant it to contain\n%s", got.stderr, tc.stderr)
			}
		})
	}
}
