package readability

import (
	"regexp"
	"sync"
)

// lazyRegexp is a regular expression compiled when it is first used, not
// when the package is initialised: every start of tack links this package,
// few fetch a page. It has the methods of *regexp.Regexp the parser calls.
type lazyRegexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// expressions are all of the package's, for the test that compiles each.
var expressions []*lazyRegexp

// lazy is regexp.MustCompile(expr), deferred to the first use.
func lazy(expr string) *lazyRegexp {
	l := &lazyRegexp{expr: expr}
	expressions = append(expressions, l)
	return l
}

// get compiles the expression once; it panics on a bad expression, as
// MustCompile did at initialisation.
func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.expr) })
	return l.re
}

func (l *lazyRegexp) MatchString(s string) bool { return l.get().MatchString(s) }

func (l *lazyRegexp) FindAllString(s string, n int) []string { return l.get().FindAllString(s, n) }

func (l *lazyRegexp) FindStringSubmatch(s string) []string { return l.get().FindStringSubmatch(s) }

func (l *lazyRegexp) ReplaceAllString(src, repl string) string {
	return l.get().ReplaceAllString(src, repl)
}

func (l *lazyRegexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return l.get().ReplaceAllStringFunc(src, repl)
}

func (l *lazyRegexp) Split(s string, n int) []string { return l.get().Split(s, n) }
