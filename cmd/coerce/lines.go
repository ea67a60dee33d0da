package main

import (
	"bufio"
	"bytes"
	"io"
)

// A lineReader reads newline-delimited messages, MCP's stdio framing, of
// any length, reusing its buffer: a line is valid until the next call.
type lineReader struct {
	r   *bufio.Reader
	buf []byte
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next line without its "\n" (a "\r" before it stays: it
// is the peer's byte), and whether a "\n" ended it.
func (l *lineReader) next() (line []byte, newline bool, err error) {
	b, err := l.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		l.buf = append(l.buf[:0], b...)
		for err == bufio.ErrBufferFull {
			b, err = l.r.ReadSlice('\n')
			l.buf = append(l.buf, b...)
		}
		b = l.buf
	}
	if err != nil && (err != io.EOF || len(b) == 0) {
		return nil, false, err
	}
	if line, ok := bytes.CutSuffix(b, []byte{'\n'}); ok {
		return line, true, nil
	}
	return b, false, nil // the last line, without a newline
}
