package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
)

// Limits of a local fetch.
const (
	// MaxPageBytes is the most a local fetch downloads.
	MaxPageBytes = 10 << 20
	// MaxRedirects is how many same-host redirects a local fetch follows.
	MaxRedirects = 10
	// LocalTimeout bounds one local fetch, redirects included.
	LocalTimeout = 30 * time.Second
)

// Local fetches pages itself with net/http and converts HTML to Markdown.
// It follows redirects on the same host only: a redirect elsewhere comes
// back as an error naming the target, so the model fetches it by name and
// the permission gate sees the new domain.
type Local struct {
	// Transport sends the requests; http.DefaultTransport when nil.
	Transport http.RoundTripper
	Version   string
}

// redirectError is a redirect to another host, reported instead of
// followed.
type redirectError struct{ to string }

func (e *redirectError) Error() string { return "redirect to " + e.to }

// Fetch downloads rawURL and converts it.
func (l *Local) Fetch(ctx context.Context, rawURL string) (Page, error) {
	u, err := checkURL(rawURL)
	if err != nil {
		return Page{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, LocalTimeout)
	defer cancel()
	resp, err := l.get(ctx, u)
	if err != nil {
		return Page{}, err
	}
	defer resp.Body.Close()
	final := resp.Request.URL
	if resp.StatusCode != http.StatusOK {
		return Page{}, siteStatus(final, resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxPageBytes+1))
	if err != nil {
		return Page{}, transportError(ctx, final, err)
	}
	if len(body) > MaxPageBytes {
		return Page{}, errorf("%s is larger than %d MB; web_fetch reads pages up to that size, find a smaller page or a text version", final, MaxPageBytes>>20)
	}
	title, md, err := convert(body, resp.Header.Get("Content-Type"), final)
	if err != nil {
		return Page{}, err
	}
	return Page{URL: final.String(), Title: title, Markdown: md, Bytes: len(body)}, nil
}

func (l *Local) get(ctx context.Context, u *url.URL) (*http.Response, error) {
	client := &http.Client{
		Transport: l.Transport,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			switch {
			case len(via) > MaxRedirects:
				return errorf("%s redirects more than %d times; web_fetch gave up", u, MaxRedirects)
			case req.URL.Scheme != "http" && req.URL.Scheme != "https":
				return errorf("%s redirects to %s, which is not an http or https URL", via[0].URL, req.URL)
			case !strings.EqualFold(req.URL.Hostname(), via[0].URL.Hostname()):
				return &redirectError{to: req.URL.String()}
			}
			return nil
		},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, errorf("%s cannot be requested: %v", u, err)
	}
	req.Header.Set("User-Agent", "tack/"+l.Version+" (terminal coding agent; web_fetch)")
	req.Header.Set("Accept", "text/html,application/xhtml+xml,text/markdown,text/plain;q=0.9,*/*;q=0.5")
	resp, err := client.Do(req)
	if err != nil {
		var re *redirectError
		var we *Error
		switch {
		case errors.As(err, &re):
			return nil, errorf("%s redirects to another host: %s; if that is the page you want, call web_fetch with that URL", u, re.to)
		case errors.As(err, &we):
			return nil, we
		}
		return nil, transportError(ctx, u, err)
	}
	return resp, nil
}

func transportError(ctx context.Context, u *url.URL, err error) *Error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return errorf("%s did not answer within %s; try again later or find another source", u, LocalTimeout)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return errorf("could not reach %s (%v); check the address, or find another source with web_search", u.Host, err)
}

// siteStatus explains a site's non-200 answer.
func siteStatus(u *url.URL, code int) *Error {
	text := fmt.Sprintf("%d %s", code, http.StatusText(code))
	switch {
	case code == http.StatusNotFound || code == http.StatusGone:
		return &Error{Status: code, Message: fmt.Sprintf("failed to fetch URL: %s answered %s; check the address, or find the page with web_search", u, text)}
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return &Error{Status: code, Message: fmt.Sprintf("failed to fetch URL: %s answered %s; the page needs a login or refuses automated readers, find another source", u, text)}
	case code == http.StatusTooManyRequests || code >= 500:
		return &Error{Status: code, Message: fmt.Sprintf("failed to fetch URL: %s answered %s; the site is busy or failing, try again later or find another source", u, text)}
	}
	return &Error{Status: code, Message: fmt.Sprintf("failed to fetch URL: %s answered %s", u, text)}
}

// convert turns a downloaded body into a title and Markdown by its content
// type: HTML through readability, text as it is, anything else refused.
func convert(body []byte, contentType string, u *url.URL) (string, string, error) {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil || mt == "" {
		mt = http.DetectContentType(body)
		mt, _, _ = mime.ParseMediaType(mt)
	}
	switch {
	case mt == "text/html" || mt == "application/xhtml+xml":
		r, err := charset.NewReader(bytes.NewReader(body), contentType)
		if err != nil {
			r = bytes.NewReader(body)
		}
		return htmlToMarkdown(r, u)
	case strings.HasPrefix(mt, "text/") || mt == "application/json" || strings.HasSuffix(mt, "+json") ||
		mt == "application/xml" || strings.HasSuffix(mt, "+xml") || mt == "application/javascript":
		if !utf8.Valid(body) {
			r, err := charset.NewReader(bytes.NewReader(body), contentType)
			if err == nil {
				if b, err := io.ReadAll(r); err == nil {
					body = b
				}
			}
		}
		return "", strings.ToValidUTF8(string(body), "\uFFFD"), nil
	}
	return "", "", errorf("%s is %s, not a web page or text; web_fetch reads HTML and text only", u, mt)
}
