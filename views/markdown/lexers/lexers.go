// Package lexers holds the chroma lexers for the languages models write in
// code fences, read on first use instead of at process start: chroma's own
// lexers package parses all of its 279 lexers when it is imported, which
// cost tack's start-up more than anything else.
//
// The XML definitions here are copied unchanged from chroma v2.27.0 (MIT,
// see LICENSE beside them); the Go lexer, Go code in chroma, is ported in
// golang.go.
package lexers

import (
	"embed"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

//go:embed *.xml
var embedded embed.FS

// registry holds every lexer here, so that one can use another (HTML
// uses JavaScript and CSS, a Dockerfile Bash). Building it reads no file.
var registry = sync.OnceValue(newRegistry)

func newRegistry() *chroma.LexerRegistry {
	r := chroma.NewLexerRegistry()
	for _, d := range index {
		r.Register(&lazy{config: d.config, file: d.file})
	}
	r.Register(golang(r.Get("go-template")))
	return r
}

// Get returns the lexer for a fence's language as chroma resolves it: by
// name, alias or file name (`go`, `Python`, `sh`, `Dockerfile`, `main.rs`),
// or nil for a language that is not here. A lexer reads its definition and
// compiles its rules on first use.
func Get(language string) chroma.Lexer {
	if language == "" {
		return nil
	}
	return registry().Get(language)
}

// lazy is a lexer known by its header; its definition is read the first
// time it tokenises.
type lazy struct {
	config   chroma.Config
	file     string
	registry *chroma.LexerRegistry
	once     sync.Once
	lexer    chroma.Lexer
}

func (l *lazy) Config() *chroma.Config { return &l.config }

// Tokenise reads the definition on first use; a definition that does not
// parse is a broken build, which TestEveryLexerLoadsAndTokenises catches.
func (l *lazy) Tokenise(options *chroma.TokeniseOptions, text string) (chroma.Iterator, error) {
	l.once.Do(func() {
		l.lexer = chroma.MustNewXMLLexer(embedded, l.file).SetRegistry(l.registry)
	})
	return l.lexer.Tokenise(options, text)
}

func (l *lazy) SetRegistry(r *chroma.LexerRegistry) chroma.Lexer {
	l.registry = r
	return l
}

// SetAnalyser and AnalyseText are unused: a fence names its language.
func (l *lazy) SetAnalyser(func(string) float32) chroma.Lexer { return l }
func (l *lazy) AnalyseText(string) float32                    { return 0 }
