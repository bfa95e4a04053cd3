// Command release is the release tooling `make dist` and `make dist-check`
// call:
//
//	release icons -out DIR                           the icon as vimpclient.ico and vimpclient.png (for go-winres)
//	release pack -version V -date T -build DIR -out DIR   the archives of DIR/OS_ARCH/vimpclient[.exe], and SHA256SUMS
//	release check -version V -dist DIR [-run]        verify the sums and every archive; -run also runs the binaries
//	                                                 this machine can (linux/amd64 natively, windows/amd64 under Wine)
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"vimpclient/internal/icon"
	"vimpclient/internal/release"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: release icons|pack|check [flags]")
		return 2
	}
	var err error
	switch args[0] {
	case "icons":
		err = runIcons(args[1:], stderr)
	case "pack":
		err = runPack(args[1:], stdout, stderr)
	case "check":
		err = runCheck(ctx, args[1:], stdout, stderr)
	default:
		fmt.Fprintf(stderr, "release: unknown command %q\n", args[0])
		return 2
	}
	if err != nil {
		fmt.Fprintf(stderr, "release: %v\n", err)
		return 1
	}
	return 0
}

func runIcons(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("release icons", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "directory to write vimpclient.ico and vimpclient.png into")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("icons: -out is required")
	}
	ico, err := icon.ICO()
	if err != nil {
		return err
	}
	png, err := icon.PNG(256)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(*out, "vimpclient.ico"), ico, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(*out, "vimpclient.png"), png, 0o644)
}

func runPack(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("release pack", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o release.PackOptions
	fs.StringVar(&o.Version, "version", "", "release version, e.g. v1.2.3")
	date := fs.String("date", "", "RFC 3339 time of every archive entry (the commit's time)")
	fs.StringVar(&o.BuildDir, "build", "", "directory of OS_ARCH/vimpclient[.exe] builds")
	fs.StringVar(&o.OutDir, "out", "", "directory to write the archives and SHA256SUMS into")
	docs := fs.String("docs", ".", "directory holding "+fmt.Sprint(release.DocNames))
	if err := fs.Parse(args); err != nil {
		return err
	}
	if o.BuildDir == "" || o.OutDir == "" {
		return fmt.Errorf("pack: -build and -out are required")
	}
	t, err := time.Parse(time.RFC3339, *date)
	if err != nil {
		return fmt.Errorf("pack: -date: %w", err)
	}
	o.Date = t
	o.Docs = release.Docs{}
	for _, n := range release.DocNames {
		b, err := os.ReadFile(filepath.Join(*docs, n))
		if err != nil {
			return fmt.Errorf("pack: %w", err)
		}
		o.Docs[n] = b
	}
	names, err := release.Pack(o)
	if err != nil {
		return err
	}
	for _, n := range names {
		fi, err := os.Stat(filepath.Join(o.OutDir, n))
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%-45s %6.1f MB\n", n, float64(fi.Size())/1e6)
	}
	return nil
}
