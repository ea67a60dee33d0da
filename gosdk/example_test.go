package gosdkcoerce_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"log/slog"
	"os"

	"github.com/coerce-go/coerce/gosdk"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// SearchArgs is the input of the search tool; mcp.AddTool infers its
// schema: tags an array, limit an integer, filter an object.
type SearchArgs struct {
	Tags   []string       `json:"tags"`
	Limit  int            `json:"limit"`
	Filter map[string]any `json:"filter"`
}

func search(ctx context.Context, req *mcp.CallToolRequest, in SearchArgs) (*mcp.CallToolResult, any, error) {
	text := fmt.Sprintf("tags=%q limit=%d filter=%v", in.Tags, in.Limit, in.Filter)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
}

// A host calls the tool with an array and an object as JSON text and an
// integer as a string. Without Install, the SDK would reject the call with
// a message about one of them, such as: validating "arguments": ...
// type: ["go","mcp"] has type "string", want one of "null, array".
func ExampleInstall() {
	server := mcp.NewServer(&mcp.Implementation{Name: "search"}, nil)
	gosdkcoerce.Install(server)
	mcp.AddTool(server, &mcp.Tool{Name: "search", Description: "Search the index."}, search)

	text, err := callSearch(server, `{"tags": "[\"go\",\"mcp\"]", "limit": "10", "filter": "{\"lang\":\"en\"}"}`)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(text)
	// Output:
	// tags=["go" "mcp"] limit=10 filter=map[lang:en]
}

// A call coercion cannot fix is answered with feedback for the model, as
// a tool result with isError set; the handler does not run. OnError says
// what could not be fixed, and Logger logs it at warn level (and each
// repair of the calls that go on at debug level).
func ExampleOptions_Install() {
	server := mcp.NewServer(&mcp.Implementation{Name: "search"}, nil)
	gosdkcoerce.Options{
		OnError: func(ctx context.Context, tool string, err error) {
			fmt.Printf("%s: not coerced: %v\n", tool, err)
		},
		Logger: slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
			Level: slog.LevelDebug,
			ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
				if a.Key == slog.TimeKey && len(groups) == 0 {
					return slog.Attr{} // for a stable output
				}
				return a
			},
		})),
	}.Install(server)
	mcp.AddTool(server, &mcp.Tool{Name: "search"}, search)

	text, err := callSearch(server, `{"tags": "[\"go\"]", "limit": "ten", "filter": {}}`)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(text)
	// Output:
	// search: not coerced: coerce: /limit: want integer, found string "ten": invalid syntax: not a number
	// level=WARN msg="coerce: argument rejected" tool=search client.name=host rejection.path=/limit rejection.declared=integer rejection.found=string rejection.preview=ten rejection.rule=syntax
	// Invalid arguments: 1 problem. Correct it and send the call again.
	// - /limit: expected an integer; found the string "ten", which is not valid (not a number). Example: 1
}

// callSearch connects a client to server in process, calls the search tool
// with the given arguments, and returns the text of the result.
func callSearch(server *mcp.Server, arguments string) (string, error) {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		return "", err
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "host"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return "", err
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: json.RawMessage(arguments)})
	if err != nil {
		return "", err
	}
	return res.Content[0].(*mcp.TextContent).Text, nil
}
