package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"time"

	"github.com/coerce-go/coerce"
)

func runHTTP(ctx context.Context, upstream, listen string, opts coerce.Options, log *slog.Logger, listTimeout time.Duration, stderr io.Writer) error {
	return errors.New("not yet")
}
