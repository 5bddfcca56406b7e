package gfm

import (
	"bytes"
	"regexp"
	"sync"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// The autolink patterns, goldmark's, compiled on first use: their
// {1,256} repeats make them the costliest patterns of a start.
var (
	wwwURLRegexp = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^www\.[-a-zA-Z0-9@:%._\+~#=]{1,256}\.[a-z]+(?:[/#?][-a-zA-Z0-9@:%_\+.~#!?&/=\(\);,'">\^{}\[\]` + "`" + `]*)?`)
	})
	urlRegexp = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:http|https|ftp)://[-a-zA-Z0-9@:%._\+~#=]{1,256}\.[a-z]+(?::\d+)?(?:[/#?][-a-zA-Z0-9@:%_+.~#$!?&/=\(\);,'">\^{}\[\]` + "`" + `]*)?`)
	})
)

var (
	protoHTTP  = []byte("http:")
	protoHTTPS = []byte("https:")
	protoFTP   = []byte("ftp:")
	domainWWW  = []byte("www.")
)

// linkifyParser finds text that looks like a URL, a www. address or an
// email address and makes it an autolink.
type linkifyParser struct{}

func (linkifyParser) Trigger() []byte {
	// ' ' stands for any white space and the start of a line.
	return []byte{' ', '*', '_', '~', '('}
}

func (linkifyParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	if pc.IsInLinkLabel() {
		return nil
	}
	line, segment := block.PeekLine()
	consumes := 0
	start := segment.Start
	c := line[0]
	// Step over the trigger when it is not the start of the line.
	if c == ' ' || c == '*' || c == '_' || c == '~' || c == '(' {
		consumes++
		start++
		line = line[1:]
	}
	var protocol []byte
	typ := ast.AutoLinkURL
	m := urlMatch(line)
	if m == nil && bytes.HasPrefix(line, domainWWW) {
		m = wwwURLRegexp().FindSubmatchIndex(line)
		protocol = []byte("http")
	}
	if m != nil && m[0] != 0 {
		m = nil
	}
	if m == nil {
		if len(line) > 0 && util.IsPunct(line[0]) {
			return nil
		}
		typ = ast.AutoLinkEmail
		if m = emailMatch(line); m == nil {
			return nil
		}
	}
	if consumes != 0 {
		s := segment.WithStop(segment.Start + 1)
		ast.MergeOrAppendTextSegment(parent, s)
	}
	i := trimLinkEnd(line, m[1])
	consumes += i
	block.Advance(consumes)
	n := ast.NewTextSegment(text.NewSegment(start, start+i))
	link := ast.NewAutoLink(typ, n)
	link.Protocol = protocol
	return link
}

// urlMatch matches line against the URL pattern when it starts with one
// of the protocols.
func urlMatch(line []byte) []int {
	if bytes.HasPrefix(line, protoHTTP) || bytes.HasPrefix(line, protoHTTPS) || bytes.HasPrefix(line, protoFTP) {
		return urlRegexp().FindSubmatchIndex(line)
	}
	return nil
}

// trimLinkEnd is where a link matched up to end ends once its trailing
// punctuation (? ! . , : * _ ~), the closing parentheses it does not open
// and a final entity reference are left out, in any order, as GFM's
// autolinks extension says (and goldmark does since 1.8.7).
func trimLinkEnd(line []byte, end int) int {
	opening := bytes.Count(line[:end], []byte{'('})
	closing := bytes.Count(line[:end], []byte{')'})
	i := end
	for i > 1 {
		switch line[i-1] {
		case '?', '!', '.', ',', ':', '*', '_', '~':
			i--
		case ')':
			if closing <= opening {
				return i
			}
			closing--
			i--
		case ';':
			j := i - 2
			for j > 0 && util.IsAlphaNumeric(line[j]) {
				j--
			}
			if j == i-2 || line[j] != '&' {
				return i
			}
			i = j
		default:
			return i
		}
	}
	return i
}

// emailMatch matches an email address at the start of line: the match,
// the @ and the end of the domain, as goldmark's linkify does without an
// email pattern.
func emailMatch(line []byte) []int {
	stop := util.FindEmailIndex(line)
	if stop < 0 {
		return nil
	}
	at := bytes.IndexByte(line, '@')
	m := []int{0, stop, at, stop - 1}
	if bytes.IndexByte(line[m[2]:m[3]], '.') < 0 {
		return nil
	}
	if line[m[1]-1] == '.' {
		m[1]--
	}
	if m[1] < len(line) {
		if next := line[m[1]]; next == '-' || next == '_' {
			return nil
		}
	}
	return m
}

func (linkifyParser) CloseBlock(ast.Node, parser.Context) {}
