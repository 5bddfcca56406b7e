// Command fakellm serves an llmtest script as a standalone OpenAI-compatible
// server for manual tries:
//
//	go run ./cmd/fakellm -script FILE -addr 127.0.0.1:0 [-rules openai|sglang|vllm:WINDOW]
//
// It prints its base URL on stdout (one line) and serves until interrupted.
// Point tack at it with DEEPSEEK_BASE_URL=<url> DEEPSEEK_API_KEY=fake. The
// script format is documented in package llmtest.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "fakellm:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("fakellm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	script := fs.String("script", "", "JSON script file (see package llmtest); empty serves only the fallback")
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on")
	rules := fs.String("rules", "", "refuse what a real server refuses: openai, sglang or vllm:WINDOW (see llmtest.Rules)")
	fallback := fs.String("fallback", "The fake model's script has run out; this is the default reply.",
		"text reply once the script has run out")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var responses []llmtest.Response
	if *script != "" {
		var err error
		if responses, err = llmtest.LoadScript(*script); err != nil {
			return err
		}
	}
	opts := []llmtest.Option{llmtest.WithFallback(llmtest.ReplyText(*fallback))}
	if *rules != "" {
		r, err := llmtest.ParseRules(*rules)
		if err != nil {
			return err
		}
		opts = append(opts, llmtest.WithRules(r))
	}
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", *addr, err)
	}
	srv := llmtest.NewServer(responses, append(opts, llmtest.WithListener(l))...)
	defer srv.Close()
	fmt.Fprintln(stdout, srv.URL())

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	for _, v := range srv.Violations() {
		fmt.Fprintln(stderr, "violation:", v)
	}
	return nil
}
