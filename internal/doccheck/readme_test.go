package doccheck

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The packages the READMEs show, by the names they show them under.
var (
	core = []string{
		"context", "encoding/json", "fmt", "log", "log/slog", "maps", "net/http", "os", "testing",
		"github.com/coerce-go/coerce",
		"github.com/coerce-go/coerce/coercetest",
	}
	mcpgo = []string{
		"github.com/coerce-go/coerce/mcpgo",
		"github.com/mark3labs/mcp-go/mcp",
		"github.com/mark3labs/mcp-go/server",
		"github.com/mark3labs/mcp-go/client",
	}
	gosdk = []string{
		"github.com/coerce-go/coerce/gosdk",
		"github.com/modelcontextprotocol/go-sdk/mcp",
	}
	eino = []string{
		"github.com/coerce-go/coerce/eino",
		"github.com/cloudwego/eino/compose",
		"github.com/cloudwego/eino/components/tool",
		"github.com/cloudwego/eino/flow/agent/react",
		"github.com/cloudwego/eino/adk",
		"github.com/cloudwego/eino/components/model",
	}
	fantasy = []string{
		"fantasycoerce=github.com/coerce-go/coerce/fantasy",
		"charm.land/fantasy",
	}
	otel = []string{
		"github.com/coerce-go/coerce/otel",
		"go.opentelemetry.io/otel",
	}
	genkit = []string{
		"genkitcoerce=github.com/coerce-go/coerce/genkit",
		"github.com/firebase/genkit/go/genkit",
		"github.com/firebase/genkit/go/ai",
	}
)

func join(lists ...[]string) []string { return slices.Concat(lists...) }

// The READMEs and what a reader has at hand in each: the packages named in
// its text, and the variables its snippets take for granted.
var readmes = []struct {
	file      string
	env       Env
	workspace string // "" for the root go.work; "genkit" for genkit/go.work
}{
	{"README.md", redeclaring(rootEnv), ""},
	{"GUIDE.md", rootEnv, ""},
	{"mcpgo/README.md", Env{
		Imports: join(core, mcpgo, []string{"expvar"}),
		Prelude: `
var (
	tool mcp.Tool
	handler server.ToolHandlerFunc
	s *server.MCPServer
	c *client.Client
)
`,
	}, ""},
	{"gosdk/README.md", Env{
		Imports: join(core, gosdk),
		Prelude: `
type SearchInput struct{ Query string ` + "`json:\"query\"`" + ` }
var (
	server *mcp.Server
	session *mcp.ClientSession
	search mcp.ToolHandlerFor[SearchInput, any]
)
`,
	}, ""},
	{"eino/README.md", Env{
		Imports: join(core, eino),
		Prelude: `
var (
	ctx context.Context
	conf compose.ToolsNodeConfig
	searchTool tool.InvokableTool
	chatModel model.ToolCallingChatModel
	reactConf react.AgentConfig
	adkConf adk.ChatModelAgentConfig
)
`,
	}, ""},
	{"genkit/README.md", Env{
		Imports: join(core, genkit),
		Prelude: `
var (
	ctx context.Context
	g *genkit.Genkit
	searchTool, fetchTool ai.ToolRef
)
`,
	}, "genkit"},
	{"fantasy/README.md", Env{
		Imports: join(core, fantasy),
		Prelude: `
var (
	model fantasy.LanguageModel
	search fantasy.AgentTool
)
`,
	}, ""},
	{"openai/README.md", Env{Imports: core}, ""},    // whole files
	{"anthropic/README.md", Env{Imports: core}, ""}, // whole files
	{"otel/README.md", Env{
		Imports: join(core, gosdk, otel),
		Prelude: `
var server *mcp.Server
`,
	}, ""},
	{"examples/agentoutput/README.md", Env{Imports: core}, ""},
	{"examples/mcpserver/README.md", Env{
		Imports: join(core, gosdk, []string{"github.com/google/jsonschema-go/jsonschema"}),
		Prelude: `
type SearchInput struct{ Query string ` + "`json:\"query\"`" + ` }
var (
	ctx context.Context
	logger *slog.Logger
	schema *jsonschema.Schema
	searchPosts mcp.ToolHandlerFor[SearchInput, any]
)
`,
	}, ""},
	{"examples/workflow/README.md", Env{
		Imports: core,
		Prelude: `
type TaskReviewTrigger struct{ MaxTasks int ` + "`json:\"max_tasks\"`" + ` }
type Engine struct{}
type Envelope struct{ Payload json.RawMessage ` + "`json:\"payload\"`" + ` }
type Node struct {
	schema *coerce.Schema
	run    func(context.Context, map[string]any) (map[string]any, error)
}
`,
	}, ""},
}

// TestREADMESnippetsCompile type-checks every Go block of every README in
// the repository against the packages of this workspace.
func TestREADMESnippetsCompile(t *testing.T) {
	// The READMEs of the workspace this test runs in: DOCCHECK_WORKSPACE
	// names genkit's (see the root go.work), which `make doccheck-genkit`
	// runs with GOWORK=genkit/go.work.
	workspace := os.Getenv("DOCCHECK_WORKSPACE")
	var all []string
	for _, r := range readmes {
		if r.workspace != workspace {
			continue
		}
		all = append(all, r.env.Imports...)
		// And what the blocks import themselves (whole files, mostly).
		md, err := os.ReadFile(filepath.Join("..", "..", r.file))
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range Blocks(md) {
			all = append(all, BlockImports(b)...)
		}
	}
	slices.Sort(all)
	c, err := NewChecker(slices.Compact(all)...)
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join("..", "..")
	for _, r := range readmes {
		if r.workspace != workspace {
			continue
		}
		t.Run(r.file, func(t *testing.T) {
			md, err := os.ReadFile(filepath.Join(root, r.file))
			if err != nil {
				t.Fatal(err)
			}
			blocks := Blocks(md)
			if len(blocks) == 0 {
				t.Fatalf("%s has no Go block: remove it from the list", r.file)
			}
			for _, b := range blocks {
				for _, err := range c.Check(r.file, b, r.env) {
					t.Error(err)
				}
			}
		})
	}
}

// TestEveryREADMEIsChecked fails when a README with Go blocks is not in the
// list above, so that a new module's README is checked from the start.
func TestEveryREADMEIsChecked(t *testing.T) {
	root := filepath.Join("..", "..")
	listed := make(map[string]bool)
	for _, r := range readmes {
		listed[r.file] = true
	}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == ".git" || d.Name() == "bin" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || d.Name() != "README.md" {
			return nil
		}
		md, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if len(Blocks(md)) > 0 && !listed[filepath.ToSlash(rel)] {
			t.Errorf("%s has Go blocks but TestREADMESnippetsCompile does not check it: add it to readmes", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// rootEnv is what the root README and GUIDE.md (the manual its sections
// moved to) have at hand.
var rootEnv = Env{
	Imports: join(core, []string{
		"errors",
		"github.com/coerce-go/coerce/mcpgo",
		"mcpserver=github.com/mark3labs/mcp-go/server",
	}, gosdk, eino, otel),
	Prelude: `
type SendInput struct {
	Channel string   ` + "`json:\"channel\"`" + `
	IDs     []int64  ` + "`json:\"ids\"`" + `
}
var (
	value any
	args map[string]any
	raw, data []byte
	inputSchema, planInputSchema []byte
	in struct{ Tasks []struct{ ID int ` + "`json:\"id\"`" + ` } ` + "`json:\"tasks\"`" + ` }
	ctx context.Context
	mcpServer *mcpserver.MCPServer
	server *mcp.Server
	toolsNodeConfig compose.ToolsNodeConfig
)
`,
}

// redeclaring is e for the root README, whose Quick start declares schema
// three times in one block, as alternatives; the README's split (issue 36)
// is to show them as such, and then to drop this.
func redeclaring(e Env) Env {
	e.Redeclare = true
	return e
}
