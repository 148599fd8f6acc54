package index

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
)

// This file reads the part of SCIP (github.com/sourcegraph/scip, scip.proto)
// that importSCIP uses, with protowire alone: the scip package's bindings
// link cockroachdb/errors, sentry, gogo and protobuf reflection, about
// 1.9 MB of the binary.

// SCIPPositionEncoding is a Document's position_encoding: the unit of the
// columns of its occurrences.
type SCIPPositionEncoding int32

// The values of scip.proto's PositionEncoding.
const (
	SCIPEncodingUnspecified SCIPPositionEncoding = 0
	SCIPEncodingUTF8        SCIPPositionEncoding = 1
	SCIPEncodingUTF16       SCIPPositionEncoding = 2
	SCIPEncodingUTF32       SCIPPositionEncoding = 3
)

// scipSuffix is a descriptor's suffix: what kind of thing it names.
type scipSuffix int32

// The values of scip.proto's Descriptor.Suffix.
const (
	scipSuffixUnspecified   scipSuffix = 0
	scipSuffixNamespace     scipSuffix = 1
	scipSuffixType          scipSuffix = 2
	scipSuffixTerm          scipSuffix = 3
	scipSuffixMethod        scipSuffix = 4
	scipSuffixTypeParameter scipSuffix = 5
	scipSuffixParameter     scipSuffix = 6
	scipSuffixMeta          scipSuffix = 7
	scipSuffixLocal         scipSuffix = 8
	scipSuffixMacro         scipSuffix = 9
)

// scipRoleDefinition is the SymbolRole bit of a definition occurrence.
const scipRoleDefinition = 0x1

// Field numbers of scip.proto.
const (
	scipIndexMetadata        = 1
	scipIndexDocuments       = 2
	scipIndexExternalSymbols = 3

	scipDocRelativePath     = 1
	scipDocOccurrences      = 2
	scipDocSymbols          = 3
	scipDocLanguage         = 4
	scipDocPositionEncoding = 6

	scipOccRange       = 1
	scipOccSymbol      = 2
	scipOccSymbolRoles = 3

	scipInfoSymbol      = 1
	scipInfoDisplayName = 6
)

// scipDocument is the part of a SCIP Document that importSCIP reads.
type scipDocument struct {
	RelativePath     string
	Language         string
	PositionEncoding SCIPPositionEncoding
	Occurrences      []scipOccurrence
	Symbols          []scipSymbolInfo
}

// scipOccurrence is a SCIP Occurrence: a range of 3 (line, start, end
// column) or 4 (start line, column, end line, column) values.
type scipOccurrence struct {
	Range       []int32
	Symbol      string
	SymbolRoles int32
}

// scipSymbolInfo is the part of a SCIP SymbolInformation importSCIP reads.
type scipSymbolInfo struct {
	Symbol      string
	DisplayName string
}

// scipVisitor is called for each document and external symbol of an index,
// in file order; either may be nil.
type scipVisitor struct {
	document       func(*scipDocument) error
	externalSymbol func(*scipSymbolInfo) error
}

// decodeSCIP streams a SCIP index from r: one top-level message at a time,
// so that an index larger than memory can be read. The buffer of a message
// grows with the bytes read, never with the length the file claims.
func decodeSCIP(ctx context.Context, r *bufio.Reader, v scipVisitor) error {
	var buf bytes.Buffer
	var off int64 // of the current top-level field, for errors
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := off
		tag, n, err := readUvarint(r)
		if err == io.EOF && n == 0 {
			return nil
		}
		off += int64(n)
		if err != nil {
			return fmt.Errorf("offset %d: tag: %w", start, unexpectedEOF(err))
		}
		num, typ := protowire.DecodeTag(tag)
		if num < protowire.MinValidNumber {
			return fmt.Errorf("offset %d: bad field number %d", start, num)
		}
		switch typ {
		case protowire.BytesType:
		case protowire.VarintType, protowire.Fixed32Type, protowire.Fixed64Type:
			// not a field of Index: skipped as unknown
			var err error
			if typ == protowire.VarintType {
				var n int
				_, n, err = readUvarint(r)
				off += int64(n)
			} else {
				n := 8
				if typ == protowire.Fixed32Type {
					n = 4
				}
				n, err = r.Discard(n)
				off += int64(n)
			}
			if err != nil {
				return fmt.Errorf("offset %d: field %d: %w", start, num, unexpectedEOF(err))
			}
			continue
		default:
			// groups are not proto3
			return fmt.Errorf("offset %d: field %d: wire type %d in a SCIP index", start, num, typ)
		}
		size, n, err := readUvarint(r)
		off += int64(n)
		if err != nil {
			return fmt.Errorf("offset %d: field %d length: %w", start, num, unexpectedEOF(err))
		}
		buf.Reset()
		if size > 0 {
			got, err := io.CopyN(&buf, r, int64(min(size, math.MaxInt64)))
			off += got
			if err != nil {
				return fmt.Errorf("offset %d: field %d: %d of %d bytes: %w", start, num, got, size, unexpectedEOF(err))
			}
		}
		b := buf.Bytes()
		switch num {
		case scipIndexDocuments:
			if v.document == nil {
				continue
			}
			var d scipDocument
			if err := d.unmarshal(b); err != nil {
				return fmt.Errorf("offset %d: document: %w", start, err)
			}
			if err := v.document(&d); err != nil {
				return err
			}
		case scipIndexExternalSymbols:
			if v.externalSymbol == nil {
				continue
			}
			var si scipSymbolInfo
			if err := si.unmarshal(b); err != nil {
				return fmt.Errorf("offset %d: external symbol: %w", start, err)
			}
			if err := v.externalSymbol(&si); err != nil {
				return err
			}
		}
		// metadata and fields newer than this reader are skipped
	}
}

// readUvarint reads a protobuf varint and says how many bytes it took.
func readUvarint(r io.ByteReader) (uint64, int, error) {
	var v uint64
	for i := 0; i < binaryMaxVarintLen; i++ {
		c, err := r.ReadByte()
		if err != nil {
			return 0, i, err
		}
		if i == binaryMaxVarintLen-1 && c > 1 {
			return 0, i + 1, errors.New("varint overflows 64 bits")
		}
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return v, i + 1, nil
		}
	}
	return 0, binaryMaxVarintLen, errors.New("varint overflows 64 bits")
}

// binaryMaxVarintLen is the longest a 64-bit varint can be.
const binaryMaxVarintLen = 10

func unexpectedEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// scipFields walks the fields of a message, calling f with each field's
// number, type and value (the varint, or the bytes of a length-delimited
// field); fixed-size fields are skipped. A field's number and wire type
// that do not match what the reader expects are skipped, as protobuf does
// with unknown fields.
func scipFields(b []byte, f func(num protowire.Number, typ protowire.Type, v uint64, data []byte) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		var v uint64
		var data []byte
		switch typ {
		case protowire.VarintType:
			v, n = protowire.ConsumeVarint(b)
		case protowire.BytesType:
			data, n = protowire.ConsumeBytes(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return fmt.Errorf("field %d: %w", num, protowire.ParseError(n))
		}
		b = b[n:]
		if typ != protowire.VarintType && typ != protowire.BytesType {
			continue
		}
		if err := f(num, typ, v, data); err != nil {
			return err
		}
	}
	return nil
}

// scipString is a proto3 string field's value, which must be UTF-8.
func scipString(field string, data []byte) (string, error) {
	if !utf8.Valid(data) {
		return "", fmt.Errorf("%s: invalid UTF-8", field)
	}
	return string(data), nil
}

func (d *scipDocument) unmarshal(b []byte) error {
	return scipFields(b, func(num protowire.Number, typ protowire.Type, v uint64, data []byte) error {
		var err error
		switch {
		case num == scipDocRelativePath && typ == protowire.BytesType:
			d.RelativePath, err = scipString("relative_path", data)
		case num == scipDocLanguage && typ == protowire.BytesType:
			d.Language, err = scipString("language", data)
		case num == scipDocPositionEncoding && typ == protowire.VarintType:
			d.PositionEncoding = SCIPPositionEncoding(int32(v))
		case num == scipDocOccurrences && typ == protowire.BytesType:
			var o scipOccurrence
			if err = o.unmarshal(data); err != nil {
				err = fmt.Errorf("occurrence %d: %w", len(d.Occurrences), err)
			}
			d.Occurrences = append(d.Occurrences, o)
		case num == scipDocSymbols && typ == protowire.BytesType:
			var si scipSymbolInfo
			if err = si.unmarshal(data); err != nil {
				err = fmt.Errorf("symbol %d: %w", len(d.Symbols), err)
			}
			d.Symbols = append(d.Symbols, si)
		}
		if err != nil && d.RelativePath != "" {
			err = fmt.Errorf("%s: %w", d.RelativePath, err)
		}
		return err
	})
}

func (o *scipOccurrence) unmarshal(b []byte) error {
	return scipFields(b, func(num protowire.Number, typ protowire.Type, v uint64, data []byte) error {
		var err error
		switch {
		case num == scipOccRange && typ == protowire.VarintType:
			o.Range = append(o.Range, int32(v))
		case num == scipOccRange && typ == protowire.BytesType: // packed
			for len(data) > 0 {
				x, n := protowire.ConsumeVarint(data)
				if n < 0 {
					return fmt.Errorf("range: %w", protowire.ParseError(n))
				}
				o.Range = append(o.Range, int32(x))
				data = data[n:]
			}
		case num == scipOccSymbol && typ == protowire.BytesType:
			o.Symbol, err = scipString("symbol", data)
		case num == scipOccSymbolRoles && typ == protowire.VarintType:
			o.SymbolRoles = int32(v)
		}
		return err
	})
}

func (si *scipSymbolInfo) unmarshal(b []byte) error {
	return scipFields(b, func(num protowire.Number, typ protowire.Type, v uint64, data []byte) error {
		var err error
		switch {
		case num == scipInfoSymbol && typ == protowire.BytesType:
			si.Symbol, err = scipString("symbol", data)
		case num == scipInfoDisplayName && typ == protowire.BytesType:
			si.DisplayName, err = scipString("display_name", data)
		}
		return err
	})
}

// scipSymbol is a parsed SCIP symbol string:
//
//	<scheme> ' ' <manager> ' ' <package> ' ' <version> ' ' <descriptor>+
//	'local ' <simple-identifier>
//
// Package is nil for a local symbol; "." in a package field is "".
type scipSymbol struct {
	Scheme      string
	Package     *scipPackage
	Descriptors []scipDescriptor
}

type scipPackage struct{ Manager, Name, Version string }

type scipDescriptor struct {
	Name, Disambiguator string
	Suffix              scipSuffix
}

// isSCIPLocal reports whether a symbol is local to its document.
func isSCIPLocal(symbol string) bool {
	return len(symbol) >= len(scipLocalPrefix) && symbol[:len(scipLocalPrefix)] == scipLocalPrefix
}

const scipLocalPrefix = "local "

// parseSCIPSymbol parses a symbol string as scip.proto's grammar says
// (and as the scip package's ParseSymbol does): space-separated scheme
// and package fields where two spaces are a literal space, then
// descriptors whose names are simple identifiers or backtick-quoted,
// where two backticks are a literal backtick.
func parseSCIPSymbol(symbol string) (*scipSymbol, error) {
	if symbol == "" {
		return nil, errors.New("empty symbol")
	}
	if !utf8.ValidString(symbol) {
		return nil, errors.New("symbol is not UTF-8")
	}
	if isSCIPLocal(symbol) {
		name := symbol[len(scipLocalPrefix):]
		if !isSimpleIdentifier(name) {
			return nil, fmt.Errorf("expected 'local <simple-identifier>': %q", symbol)
		}
		return &scipSymbol{Scheme: "local", Descriptors: []scipDescriptor{{Name: name, Suffix: scipSuffixLocal}}}, nil
	}
	p := symbolParser{s: symbol}
	out := &scipSymbol{Package: &scipPackage{}}
	var err error
	if out.Scheme, err = p.terminated(' ', "scheme"); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		dst  *string
		what string
	}{{&out.Package.Manager, "package manager"}, {&out.Package.Name, "package name"}, {&out.Package.Version, "package version"}} {
		if *f.dst, err = p.terminated(' ', f.what); err != nil {
			return nil, err
		}
		if *f.dst == "." {
			*f.dst = ""
		}
	}
	for p.i < len(p.s) {
		d, err := p.descriptor()
		if err != nil {
			return nil, err
		}
		out.Descriptors = append(out.Descriptors, d)
	}
	return out, nil
}

type symbolParser struct {
	s string
	i int
}

func (p *symbolParser) errorf(format string, args ...any) error {
	return fmt.Errorf("symbol %q at %d: %s", p.s, p.i, fmt.Sprintf(format, args...))
}

// terminated reads up to the next single term; a doubled term is a literal
// one. The term must be followed by something.
func (p *symbolParser) terminated(term byte, what string) (string, error) {
	var b []byte
	start := p.i
	for i := p.i; i < len(p.s); i++ {
		if p.s[i] != term {
			continue
		}
		if i+1 == len(p.s) {
			break
		}
		if p.s[i+1] == term {
			b = append(b, p.s[start:i+1]...)
			i++
			start = i + 1
			continue
		}
		p.i = i + 1
		if b == nil {
			return p.s[start:i], nil
		}
		return string(append(b, p.s[start:i]...)), nil
	}
	p.i = len(p.s)
	return "", p.errorf("end of symbol in the %s, expected %q", what, term)
}

// identifier reads a simple or a backtick-quoted identifier.
func (p *symbolParser) identifier(what string) (string, error) {
	if p.i < len(p.s) && p.s[p.i] == '`' {
		p.i++
		return p.terminated('`', what)
	}
	start := p.i
	for p.i < len(p.s) && isSimpleIdentifierChar(p.s[p.i]) {
		p.i++
	}
	if p.i == start {
		return "", p.errorf("empty %s", what)
	}
	return p.s[start:p.i], nil
}

func (p *symbolParser) accept(c byte, what string) error {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return nil
	}
	return p.errorf("expected %q closing the %s", c, what)
}

func (p *symbolParser) descriptor() (scipDescriptor, error) {
	var d scipDescriptor
	var err error
	switch p.s[p.i] {
	case '(':
		p.i++
		d.Suffix = scipSuffixParameter
		if d.Name, err = p.identifier("parameter name"); err != nil {
			return d, err
		}
		return d, p.accept(')', "parameter")
	case '[':
		p.i++
		d.Suffix = scipSuffixTypeParameter
		if d.Name, err = p.identifier("type parameter name"); err != nil {
			return d, err
		}
		return d, p.accept(']', "type parameter")
	}
	if d.Name, err = p.identifier("descriptor name"); err != nil {
		return d, err
	}
	if p.i == len(p.s) {
		return d, p.errorf("descriptor %q without a suffix", d.Name)
	}
	c := p.s[p.i]
	p.i++
	switch c {
	case '(':
		d.Suffix = scipSuffixMethod
		if p.i < len(p.s) && p.s[p.i] != ')' {
			if d.Disambiguator, err = p.identifier("method disambiguator"); err != nil {
				return d, err
			}
		}
		if err := p.accept(')', "method"); err != nil {
			return d, err
		}
		return d, p.accept('.', "method")
	case '/':
		d.Suffix = scipSuffixNamespace
	case '.':
		d.Suffix = scipSuffixTerm
	case '#':
		d.Suffix = scipSuffixType
	case ':':
		d.Suffix = scipSuffixMeta
	case '!':
		d.Suffix = scipSuffixMacro
	default:
		p.i--
		return d, p.errorf("unrecognized descriptor suffix %q", c)
	}
	return d, nil
}

func isSimpleIdentifierChar(c byte) bool {
	return c == '_' || c == '+' || c == '-' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func isSimpleIdentifier(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isSimpleIdentifierChar(s[i]) {
			return false
		}
	}
	return s != ""
}
