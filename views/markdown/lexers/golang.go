package lexers

import (
	c "github.com/alecthomas/chroma/v2"
)

// golang is chroma's Go lexer (lexers/go.go in chroma v2.27.0, MIT), whose
// raw strings are lexed by template, the Go template lexer.
func golang(template c.Lexer) c.Lexer {
	return c.MustNewLexer(&c.Config{
		Name:      "Go",
		Aliases:   []string{"go", "golang"},
		Filenames: []string{"*.go"},
		MimeTypes: []string{"text/x-gosrc"},
	}, func() c.Rules { return goRules(template) })
}

func goRules(template c.Lexer) c.Rules {
	return c.Rules{
		"root": {
			rule(`\n`, c.TextWhitespace),
			rule(`\s+`, c.TextWhitespace),
			rule(`//[^\s\n\r][^\n\r]*`, c.CommentPreproc),
			rule(`//[^\n\r]*`, c.CommentSingle),
			rule(`/(\\\n)?[*](.|\n)*?[*](\\\n)?/`, c.CommentMultiline),
			rule(`(import|package)\b`, c.KeywordNamespace),
			rule(`(var|func|struct|map|chan|type|interface|const)\b`, c.KeywordDeclaration),
			rule(c.Words(``, `\b`, `break`, `default`, `select`, `case`, `defer`, `go`, `else`, `goto`, `switch`, `fallthrough`, `if`, `range`, `continue`, `for`, `return`), c.Keyword),
			rule(`(true|false|iota|nil)\b`, c.KeywordConstant),
			rule(c.Words(``, `\b(\()`, `uint`, `uint8`, `uint16`, `uint32`, `uint64`, `int`, `int8`, `int16`, `int32`, `int64`, `float`, `float32`, `float64`, `complex64`, `complex128`, `byte`, `rune`, `string`, `bool`, `error`, `uintptr`, `print`, `println`, `panic`, `recover`, `close`, `complex`, `real`, `imag`, `len`, `cap`, `append`, `copy`, `delete`, `new`, `make`, `clear`, `min`, `max`), c.ByGroups(c.NameBuiltin, c.Punctuation)),
			rule(c.Words(``, `\b`, `uint`, `uint8`, `uint16`, `uint32`, `uint64`, `int`, `int8`, `int16`, `int32`, `int64`, `float`, `float32`, `float64`, `complex64`, `complex128`, `byte`, `rune`, `string`, `bool`, `error`, `uintptr`, `any`), c.KeywordType),
			rule(`\d+i`, c.LiteralNumber),
			rule(`\d+\.\d*([Ee][-+]\d+)?i`, c.LiteralNumber),
			rule(`\.\d+([Ee][-+]\d+)?i`, c.LiteralNumber),
			rule(`\d+[Ee][-+]\d+i`, c.LiteralNumber),
			rule(`\d+(\.\d+[eE][+\-]?\d+|\.\d*|[eE][+\-]?\d+)`, c.LiteralNumberFloat),
			rule(`\.\d+([eE][+\-]?\d+)?`, c.LiteralNumberFloat),
			rule(`0[0-7]+`, c.LiteralNumberOct),
			rule(`0[xX][0-9a-fA-F_]+`, c.LiteralNumberHex),
			rule(`0b[01_]+`, c.LiteralNumberBin),
			rule(`(0|[1-9][0-9_]*)`, c.LiteralNumberInteger),
			rule(`'(\\['"\\abfnrtv]|\\x[0-9a-fA-F]{2}|\\[0-7]{1,3}|\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}|[^\\])'`, c.LiteralStringChar),
			rule("(`)([^`]*)(`)", c.ByGroups(c.LiteralString, c.UsingLexer(c.TypeRemappingLexer(template, c.TypeMapping{{From: c.Other, To: c.LiteralString}})), c.LiteralString)),
			rule(`"(\\\\|\\"|[^"])*"`, c.LiteralString),
			rule(`(<<=|>>=|<<|>>|<=|>=|&\^=|&\^|\+=|-=|\*=|/=|%=|&=|\|=|&&|\|\||<-|\+\+|--|==|!=|:=|\.\.\.|[+\-*/%&])`, c.Operator),
			rule(`([a-zA-Z_]\w*)(\s*)(\()`, c.ByGroups(c.NameFunction, c.UsingSelf("root"), c.Punctuation)),
			rule(`[|^<>=!()\[\]{}.,;:~]`, c.Punctuation),
			rule(`[^\W\d]\w*`, c.NameOther),
		},
	}
}

// rule is one rule of a state that does not change state.
func rule(pattern string, emitter c.Emitter) c.Rule {
	return c.Rule{Pattern: pattern, Type: emitter}
}
