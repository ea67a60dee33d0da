package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// stdioProxy runs an MCP server as a child process and relays
// newline-delimited JSON-RPC between it and the proxy's own stdin and
// stdout, through a session.
type stdioProxy struct {
	sess        *session
	listTimeout time.Duration
	// grace is how long the server has to exit once the client has gone
	// (its stdin closed) before it is sent SIGTERM, then as long again
	// before SIGKILL: the shutdown MCP's stdio transport describes.
	grace time.Duration
}

// writer is one side's output: messages from both directions' goroutines
// (the proxy's answers and relayed messages) are written whole, one at a
// time.
type writer struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *writer) write(msg []byte, newline bool) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if newline {
		msg = append(msg[:len(msg):len(msg)], '\n')
	}
	_, err := w.w.Write(msg)
	return err
}

func (p *stdioProxy) run(ctx context.Context, argv []string, stdin io.Reader, stdout, stderr io.Writer) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = stderr // the server's own logs pass through
	toServer, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	fromServer, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting the server: %v", err)
	}
	server := &writer{w: toServer}
	client := &writer{w: stdout}

	// Signals meant for the proxy are the server's too: a host that stops
	// the proxy stops the server, and the proxy exits with its status.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		for sig := range sigs {
			cmd.Process.Signal(sig)
		}
	}()

	serverDone := make(chan struct{})
	go func() {
		defer close(serverDone)
		defer p.sess.close()
		lines := newLineReader(fromServer)
		for {
			line, nl, err := lines.next()
			if err != nil {
				return
			}
			if out := p.sess.fromServer(line); out != nil {
				if client.write(out, nl) != nil {
					return
				}
			}
		}
	}()

	clientDone := make(chan struct{})
	go func() {
		defer close(clientDone)
		defer toServer.Close()
		var list lister = func(ctx context.Context, meta json.RawMessage) error {
			ctx, cancel := context.WithTimeout(ctx, p.listTimeout)
			defer cancel()
			return p.sess.listAll(ctx, meta, func(msg []byte) error { return server.write(msg, true) })
		}
		lines := newLineReader(stdin)
		for {
			line, nl, err := lines.next()
			if err != nil {
				return
			}
			o := p.sess.fromClient(ctx, line, list)
			if o.reply != nil && client.write(o.reply, true) != nil {
				return
			}
			if o.forward != nil && server.write(o.forward, nl) != nil {
				return
			}
		}
	}()

	select {
	case <-serverDone:
	case <-clientDone:
		p.stop(cmd, serverDone)
	}
	<-serverDone
	return exitStatus(cmd.Wait())
}

// stop waits for the server to exit after its stdin closed, then asks it
// to, then makes it.
func (p *stdioProxy) stop(cmd *exec.Cmd, done <-chan struct{}) {
	for _, sig := range []os.Signal{nil, syscall.SIGTERM, os.Kill} {
		if sig != nil {
			cmd.Process.Signal(sig)
		}
		select {
		case <-done:
			return
		case <-time.After(p.grace):
		}
	}
}

// exitStatus turns the server's end into the proxy's: its exit status, or
// 128 plus the signal that ended it, as shells report it.
func exitStatus(err error) error {
	if err == nil {
		return nil
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return err
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return &exitError{128 + int(ws.Signal())}
	}
	return &exitError{ee.ExitCode()}
}
