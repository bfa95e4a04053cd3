package assets

import (
	"bytes"
	"fmt"
	"image"
	_ "image/gif"  // hosts serve PNG; other common formats are decoded too
	_ "image/jpeg" // (a part that gets none draws its fallback)
	_ "image/png"
)

// checkImage reads an image's header and refuses dimensions over the
// limits, before any pixel is decoded: a few bytes can claim a picture of
// gigabytes.
func checkImage(file string, b []byte, lim Limits) error {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("%s: image header: %w", file, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return fmt.Errorf("%s: image of %d×%d px", file, cfg.Width, cfg.Height)
	}
	if side := max(cfg.Width, cfg.Height); side > lim.ImageSide {
		return &LimitError{File: file, Kind: Image, What: "px a side", Got: int64(side), Limit: int64(lim.ImageSide)}
	}
	if px := int64(cfg.Width) * int64(cfg.Height); px > lim.ImagePixels {
		return &LimitError{File: file, Kind: Image, What: "pixels", Got: px, Limit: lim.ImagePixels}
	}
	return nil
}

// decodeImage checks the header, then decodes the pixels.
func decodeImage(file string, b []byte, lim Limits) (image.Image, error) {
	if err := checkImage(file, b, lim); err != nil {
		return nil, err
	}
	img, _, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: image: %w", file, err)
	}
	return img, nil
}
