package lang

import (
	"path"
	"strings"
)

// phpBuiltins are PHP's everyday functions and language constructs that
// read like calls: calls to them are dropped. Functions with side effects
// (file_put_contents, curl_exec, exec, mail...) are not among them: they
// resolve as external.
var phpBuiltins = pySet(`isset unset empty echo print array list compact extract count sizeof strlen
	strtolower strtoupper ucfirst lcfirst ucwords trim ltrim rtrim str_replace str_ireplace substr strpos stripos
	strrpos str_contains str_starts_with str_ends_with str_pad str_repeat str_split explode implode join sprintf
	printf vsprintf number_format nl2br htmlspecialchars htmlentities html_entity_decode strip_tags addslashes
	stripslashes json_encode json_decode serialize unserialize var_dump var_export print_r is_null is_array
	is_string is_int is_integer is_float is_bool is_numeric is_object is_callable is_iterable is_countable
	is_a is_subclass_of intval floatval boolval strval settype gettype get_class get_parent_class
	get_object_vars method_exists property_exists class_exists function_exists interface_exists in_array
	array_key_exists key_exists array_keys array_values array_merge array_merge_recursive array_combine
	array_flip array_slice array_splice array_map array_filter array_reduce array_walk array_search
	array_unique array_reverse array_sum array_product array_push array_pop array_shift array_unshift
	array_fill array_fill_keys array_pad array_chunk array_column array_diff array_diff_key array_intersect
	array_intersect_key array_key_first array_key_last array_is_list range sort rsort usort uasort uksort
	ksort krsort asort arsort shuffle min max abs floor ceil round sqrt pow intdiv fmod rand mt_rand
	random_int uniqid md5 sha1 crc32 hash base64_encode base64_decode urlencode urldecode rawurlencode
	http_build_query parse_str parse_url preg_match preg_match_all preg_replace preg_replace_callback
	preg_split preg_quote date time mktime strtotime microtime hrtime date_default_timezone_set
	call_user_func call_user_func_array func_get_args func_num_args iterator_to_array spl_object_id
	spl_object_hash spl_autoload_register trigger_error error_reporting ini_set ini_get assert
	array_key_exists ctype_digit ctype_alpha mb_strlen mb_substr mb_strtolower mb_strtoupper
	str_word_count wordwrap chunk_split levenshtein similar_text soundex metaphone ord chr dechex hexdec
	bin2hex hex2bin ob_start ob_get_clean ob_end_clean header headers_sent http_response_code define
	defined constant sleep usleep memory_get_usage gc_collect_cycles debug_backtrace error_log`)

// phpCommonMethods are method names so common in frameworks and the
// standard library that a unique definition in the repository says little
// about which one a call on a value of unknown class means.
var phpCommonMethods = pySet(`get set has add remove delete update create save find findOne findAll all first
	last count toArray toJson jsonSerialize getIterator offsetGet offsetSet offsetExists offsetUnset
	__toString __get __set __call __invoke handle execute run process render send make build setUp tearDown
	where orderBy limit insert select query prepare fetch fetchAll fetchColumn bindValue bindParam
	getMessage getCode getName getValue setValue getId setId load open close read write flush push pop
	map filter each reduce sort merge keys values contains isEmpty log info debug warning error notice
	critical emergency alert assertEquals assertSame assertTrue assertFalse assertNull assertCount
	assertInstanceOf expectException getContent getBody json validate authorize boot register`)

// phpObjectMagic are the magic methods every object may have.
var phpObjectMagic = pySet(`__toString __get __set __isset __unset __call __callStatic __invoke __clone
	__serialize __unserialize __sleep __wakeup __debugInfo __destruct`)

func init() {
	l := ByName("php")
	l.builtins = phpBuiltins
	l.resolve = resolvePHP
	l.resolveImport = resolvePHPImport

	phpL := []string{"php"}
	addEffects(phpL, effRead, "file_get_contents", "file", "readfile", "file_exists", "is_file", "is_dir",
		"filesize", "filemtime", "scandir", "glob", "opendir", "readdir", "fread", "fgets", "fgetcsv",
		"parse_ini_file", "realpath", "stat", "is_readable", "is_writable")
	addEffects(phpL, effWrite, "file_put_contents", "unlink", "rename", "copy", "mkdir", "rmdir", "touch", "chmod",
		"chown", "fwrite", "fputs", "fputcsv", "tempnam", "tmpfile", "move_uploaded_file", "symlink", "link")
	addEffects(phpL, effFS, "fopen", "SplFileObject", "flock")
	addEffects(phpL, effNet, "curl_init", "curl_exec", "curl_multi_exec", "fsockopen", "stream_socket_client",
		"socket_create", "socket_connect", "mail", "ftp_connect", "Client", "GuzzleHttp.Client", "Http.get",
		"Http.post", "Http.put", "Http.delete", "get_headers", "dns_get_record", "gethostbyname")
	addEffects(phpL, effListen, "stream_socket_server", "socket_bind", "socket_listen")
	addEffects(phpL, effDB, "PDO", "mysqli", "mysqli_connect", "pg_connect", "pg_query", "mysqli_query",
		"sqlite_open", "SQLite3", "DB.table", "DB.select", "DB.insert", "DB.update", "DB.delete", "DB.statement")
	addEffects(phpL, effProc, "exec", "shell_exec", "system", "passthru", "proc_open", "popen", "pcntl_fork",
		"pcntl_exec", "Process")
	addEffects(phpL, effSignal, "posix_kill", "pcntl_signal", "proc_terminate")
	addEffects(phpL, effEnvRead, "getenv", "env", "apache_getenv")
	addEffects(phpL, effEnvSet, "putenv", "apache_setenv")
	addEffects(phpL, effExit, "exit", "die")
	addMethodEffects(phpL, `(?i)(^|->|::|\.)\$?_?(db|pdo|conn|connection|mysqli|dbh|stmt|statement|query|builder|em|entityManager)$`,
		effDB, "query", "exec", "prepare", "execute", "fetch", "fetchAll", "beginTransaction", "commit", "rollBack",
		"persist", "flush", "insert", "update", "delete", "select")
}

func isPHPPath(p string) bool {
	ext := path.Ext(p)
	return ext == ".php" || ext == ".phtml"
}

// phpUseMaps are the names a file's use statements bind: classes (and
// namespaces) by alias, functions and constants by name.
type phpUseMaps struct {
	classes, funcs, consts map[string]string // local name -> fully qualified name
}

func phpUses(fi *FileInfo) *phpUseMaps {
	m := fi.bindingsWith(func() map[string]binding {
		out := map[string]binding{}
		for i := range fi.Imports {
			imp := &fi.Imports[i]
			if strings.Contains(imp.Source, "/") || strings.HasSuffix(imp.Source, ".php") || strings.HasPrefix(imp.Source, ".") {
				continue // an include
			}
			switch {
			case len(imp.Names) > 0 && imp.Alias == "const":
				for _, n := range imp.Names {
					out["c\x00"+n.Local()] = binding{imp: imp, name: n.Name}
				}
			case len(imp.Names) > 0:
				for _, n := range imp.Names {
					out["f\x00"+strings.ToLower(n.Local())] = binding{imp: imp, name: n.Name}
				}
			default:
				local := imp.Alias
				if local == "" {
					_, local = phpSplitName(imp.Source)
				}
				out["k\x00"+strings.ToLower(local)] = binding{imp: imp}
			}
		}
		return out
	})
	u := &phpUseMaps{classes: map[string]string{}, funcs: map[string]string{}, consts: map[string]string{}}
	for k, b := range m {
		kind, local, _ := strings.Cut(k, "\x00")
		switch kind {
		case "k":
			u.classes[local] = b.imp.Source
		case "f":
			u.funcs[local] = b.imp.Source + `\` + b.name
		case "c":
			u.consts[local] = b.imp.Source + `\` + b.name
		}
	}
	return u
}

// phpQualify turns a class name as written in file fi into its fully
// qualified name (no leading backslash), by PHP's rules: \A\B is itself,
// an alias of a use statement is what it stands for (also as the first
// part of A\B), anything else is in the file's namespace. imported
// reports a name a use statement or a full name gave.
func phpQualify(fi *FileInfo, written string) (fqn string, imported bool) {
	written = strings.TrimSpace(written)
	if strings.HasPrefix(written, `\`) {
		return strings.TrimPrefix(written, `\`), true
	}
	if strings.HasPrefix(strings.ToLower(written), `namespace\`) {
		return phpJoin(fi.Module, written[len(`namespace\`):]), false
	}
	first, rest, qualified := strings.Cut(written, `\`)
	uses := phpUses(fi)
	if full, ok := uses.classes[strings.ToLower(first)]; ok {
		if qualified {
			return full + `\` + rest, true
		}
		return full, true
	}
	return phpJoin(fi.Module, written), false
}

func phpJoin(ns, name string) string {
	if ns == "" {
		return name
	}
	return ns + `\` + name
}

// phpPSR4 lists the repository's PSR-4 prefixes and directories.
func phpPSR4(tab Table) [][2]string {
	var out [][2]string
	for _, e := range phpAutoload(tab) {
		out = append(out, [2]string{e.Prefix, e.Dir})
	}
	return out
}

// phpPSR4Files are the files PSR-4 says class fqn lives in.
func phpPSR4Files(tab Table, fqn string) []string {
	var out []string
	for _, m := range phpPSR4(tab) {
		prefix, dir := m[0], m[1]
		rest := ""
		switch {
		case prefix == "":
			rest = fqn
		case fqn == prefix:
			continue
		case strings.HasPrefix(fqn, prefix+`\`):
			rest = fqn[len(prefix)+1:]
		default:
			continue
		}
		p := path.Join(dir, strings.ReplaceAll(rest, `\`, "/")+".php")
		if tab.File(p) != nil {
			out = append(out, p)
		}
	}
	return out
}

// phpNamespaceOurs reports whether namespace ns belongs to the
// repository: a PSR-4 prefix of its composer.json covers it, or a file
// declares it, or (without composer.json) it shares its root with the
// namespace of the file asking.
func phpNamespaceOurs(tab Table, fi *FileInfo, ns string) bool {
	psr := phpPSR4(tab)
	for _, m := range psr {
		if m[0] == "" || ns == m[0] || strings.HasPrefix(ns, m[0]+`\`) {
			return true
		}
	}
	if tab.Memo("php.ns\x00"+ns, func() string {
		for _, f := range tab.ModuleFiles("php", ns) {
			if fi := tab.File(f); fi != nil && fi.Module == ns {
				return "1"
			}
		}
		return ""
	}) != "" {
		return true
	}
	if len(psr) > 0 || ns == "" {
		return false
	}
	root, _, _ := strings.Cut(ns, `\`)
	mine, _, _ := strings.Cut(fi.Module, `\`)
	return root != "" && strings.EqualFold(root, mine)
}

// phpFindClass finds the class (interface, trait, enum) of a fully
// qualified name. ext reports a namespace outside the repository.
func phpFindClass(tab Table, fi *FileInfo, fqn string) (t *Target, ext bool) {
	ns, name := phpSplitName(fqn)
	if name == "" {
		return nil, false
	}
	cands := pick(tab.ByName(name), func(t *Target) bool {
		return isTypeKind(t.Kind) && t.Container == "" && strings.EqualFold(t.Module, ns) && isPHPPath(t.Path)
	})
	if len(cands) > 1 {
		// the same class twice: the one PSR-4 loads
		files := phpPSR4Files(tab, fqn)
		if c := one(pick(cands, func(t *Target) bool {
			for _, f := range files {
				if t.Path == f {
					return true
				}
			}
			return false
		})); c != nil {
			return c, false
		}
		return one(preferDefinitions(cands)), false
	}
	if len(cands) == 1 {
		return cands[0], false
	}
	// the file PSR-4 names, whatever namespace it says
	for _, f := range phpPSR4Files(tab, fqn) {
		for _, t := range tab.ByName(name) {
			if t.Path == f && isTypeKind(t.Kind) && t.Container == "" {
				return t, false
			}
		}
	}
	if phpBuiltinClasses[fqn] {
		return nil, true
	}
	return nil, !phpNamespaceOurs(tab, fi, ns)
}

// phpBuiltinClasses are classes of PHP itself, in the global namespace.
var phpBuiltinClasses = pySet(`Exception ErrorException Error TypeError ValueError ArgumentCountError
	ArithmeticError DivisionByZeroError RuntimeException LogicException InvalidArgumentException
	DomainException LengthException OutOfRangeException OutOfBoundsException RangeException OverflowException
	UnderflowException UnexpectedValueException BadFunctionCallException BadMethodCallException
	JsonException Throwable Stringable Countable ArrayAccess Iterator IteratorAggregate Traversable
	JsonSerializable Serializable Closure Generator DateTime DateTimeImmutable DateTimeInterface DateInterval
	DateTimeZone ArrayObject ArrayIterator SplObjectStorage SplQueue SplStack SplFileObject SplFileInfo
	stdClass PDO PDOStatement PDOException mysqli SQLite3 ReflectionClass ReflectionMethod WeakMap UnitEnum
	BackedEnum Attribute`)

// phpResolveClass resolves a class as written in file fi by code in the
// class cls (for self, static and parent): the class and the rule.
func phpResolveClass(tab Table, fi *FileInfo, cls *Target, written string) (*Target, string) {
	switch strings.ToLower(written) {
	case "self", "static", "$this":
		if cls != nil {
			return cls, RuleSameFile
		}
		return nil, RuleUnresolved
	case "parent":
		if cls == nil || len(cls.Bases) == 0 {
			return nil, RuleUnresolved
		}
		return phpResolveClass(tab, tab.File(cls.Path), nil, cls.Bases[0])
	}
	if csPredefined[strings.ToLower(written)] || written == "" {
		return nil, RuleExternal
	}
	fqn, imported := phpQualify(fi, written)
	t, ext := phpFindClass(tab, fi, fqn)
	if t == nil && !imported && !strings.Contains(written, `\`) {
		// an unqualified name PHP did not find in the namespace: the
		// global class of that name (Exception)
		if g, gext := phpFindClass(tab, fi, written); g != nil {
			t, ext = g, false
		} else if gext || phpBuiltinClasses[written] {
			return nil, RuleExternal
		}
	}
	switch {
	case t == nil && ext:
		return nil, RuleExternal
	case t == nil:
		return nil, RuleUnresolved
	case t.Path == fi.Path:
		return t, RuleSameFile
	case imported:
		return t, RuleImport
	case strings.EqualFold(t.Module, fi.Module):
		return t, RuleSamePackage
	}
	return t, RuleImport
}

// phpFindMethod finds method name of class cls, then of its parents,
// interfaces and traits. ext reports an ancestor outside the repository.
func phpFindMethod(tab Table, cls *Target, name string, depth int) (m *Target, ext bool) {
	if depth > MaxDepth {
		return nil, false
	}
	q := cls.Qualified()
	for _, t := range tab.ByName(name) {
		if (t.Kind == KindMethod || t.Kind == KindConstructor) && t.Path == cls.Path && t.Container == q {
			return t, false
		}
	}
	fi := tab.File(cls.Path)
	if fi == nil {
		return nil, false
	}
	for _, b := range cls.Bases {
		bt, rule := phpResolveClass(tab, fi, nil, b)
		if bt == nil {
			ext = ext || rule == RuleExternal
			continue
		}
		if bt.ID == cls.ID {
			continue
		}
		if m, e := phpFindMethod(tab, bt, name, depth+1); m != nil {
			return m, false
		} else if e {
			ext = true
		}
	}
	if phpObjectMagic[name] {
		ext = true
	}
	return nil, ext
}

// phpFieldType is the class of property name of cls, following parents
// and traits.
func phpFieldType(tab Table, cls *Target, name string, depth int) (t *Target, ext, found bool) {
	if depth > MaxDepth {
		return nil, false, false
	}
	fi := tab.File(cls.Path)
	if fi == nil {
		return nil, false, false
	}
	for _, f := range cls.Fields {
		if f.Name == name {
			if f.Type == "" {
				return nil, false, true
			}
			ft, rule := phpResolveClass(tab, fi, cls, f.Type)
			return ft, ft == nil && rule == RuleExternal, true
		}
	}
	for _, b := range cls.Bases {
		bt, rule := phpResolveClass(tab, fi, nil, b)
		if bt == nil {
			ext = ext || rule == RuleExternal
			continue
		}
		if bt.ID == cls.ID {
			continue
		}
		if ft, e, ok := phpFieldType(tab, bt, name, depth+1); ok {
			return ft, e, true
		}
	}
	return nil, ext, false
}

// phpClassOf is the class a reference is made in.
func phpClassOf(ctx *Context) *Target {
	f := ctx.From
	if f == nil || f.Kind == KindModule {
		return nil
	}
	if isTypeKind(f.Kind) {
		return f
	}
	for q := f.Container; q != ""; q, _ = javaLastSeg(q) {
		c, name := javaLastSeg(q)
		for _, t := range ctx.Table.ByName(name) {
			if t.Path == f.Path && t.Container == c && isTypeKind(t.Kind) {
				return t
			}
		}
	}
	return nil
}

// phpIncluded lists the files a file includes or requires, resolved.
func phpIncluded(tab Table, fi *FileInfo) map[string]bool {
	v := tab.Memo("php.inc\x00"+fi.Path, func() string {
		var out []string
		for i := range fi.Imports {
			if f := phpIncludeFile(tab, fi, fi.Imports[i].Source); f != "" {
				out = append(out, f)
			}
		}
		return strings.Join(out, "\n")
	})
	m := map[string]bool{}
	for _, f := range strings.Split(v, "\n") {
		if f != "" {
			m[f] = true
		}
	}
	return m
}

// phpIncludeFile is the repository file an include names: relative to
// the file (./x, __DIR__ . '/x'), else to the file's directory or the
// repository root (the include path's usual entries).
func phpIncludeFile(tab Table, fi *FileInfo, src string) string {
	if !strings.Contains(src, "/") && !strings.HasSuffix(src, ".php") && !strings.HasSuffix(src, ".inc") &&
		!strings.HasSuffix(src, ".phtml") {
		return "" // a use statement
	}
	if strings.HasPrefix(src, "/") {
		return ""
	}
	for _, p := range []string{path.Join(path.Dir(fi.Path), src), path.Clean(src)} {
		if strings.HasPrefix(p, "../") {
			continue
		}
		if tab.File(p) != nil {
			return p
		}
	}
	return ""
}

func resolvePHPImport(ctx *Context, imp *Import, name string) Resolution {
	tab, fi := ctx.Table, ctx.File
	if f := phpIncludeFile(tab, fi, imp.Source); f != "" {
		if t := moduleTarget(tab, f); t != nil {
			return bound(t, RuleImport)
		}
	}
	if strings.Contains(imp.Source, "/") || strings.HasSuffix(imp.Source, ".php") {
		return unbound(RuleUnresolved, 0) // an include of a file the repository lacks
	}
	if name != "" {
		// use function A\f; use const A\X
		fqn := phpJoin(imp.Source, name)
		if t := phpFindFunction(tab, fqn, imp.Alias == "const"); t != nil {
			return bound(t, RuleImport)
		}
		if phpNamespaceOurs(tab, fi, imp.Source) {
			return unbound(RuleUnresolved, 0)
		}
		return unbound(RuleExternal, 0)
	}
	t, ext := phpFindClass(tab, fi, imp.Source)
	if t != nil {
		return bound(t, RuleImport)
	}
	// use A\B as namespace alias
	for _, f := range tab.ModuleFiles("php", imp.Source) {
		if ffi := tab.File(f); ffi != nil && ffi.Module == imp.Source {
			if mt := moduleTarget(tab, f); mt != nil {
				return bound(mt, RuleImport)
			}
		}
	}
	if ext {
		return unbound(RuleExternal, 0)
	}
	return unbound(RuleUnresolved, 0)
}

// phpFindFunction finds the function (or constant) of a fully qualified
// name.
func phpFindFunction(tab Table, fqn string, constant bool) *Target {
	ns, name := phpSplitName(fqn)
	cands := pick(tab.ByName(name), func(t *Target) bool {
		if !isPHPPath(t.Path) || t.Container != "" || !strings.EqualFold(t.Module, ns) {
			return false
		}
		if constant {
			return t.Kind == KindVariable
		}
		return t.Kind == KindFunction
	})
	if len(cands) == 0 && !constant {
		// function names are case-insensitive
		lower := strings.ToLower(name)
		if lower != name {
			return phpFindFunction(tab, phpJoin(ns, lower), false)
		}
	}
	return one(preferDefinitions(cands))
}

func resolvePHP(ctx *Context, r *Ref) Resolution {
	return phpResolve(ctx, r, 0)
}

func phpResolve(ctx *Context, r *Ref, depth int) Resolution {
	if depth > MaxDepth {
		return unbound(RuleUnresolved, 0)
	}
	tab := ctx.Table
	cls := phpClassOf(ctx)
	switch r.Kind {
	case RefNew, RefExtends, RefImplements:
		written := r.Name
		if r.Qualifier == `\` {
			written = `\` + r.Name
		} else if r.Qualifier != "" {
			written = r.Qualifier + `\` + r.Name
		}
		t, rule := phpResolveClass(tab, ctx.File, cls, written)
		if t == nil {
			return unbound(rule, 0)
		}
		return bound(t, rule)
	}
	if r.Qualifier == "parent" {
		return phpResolveParent(ctx, r, cls)
	}
	if r.Qualifier == "" || r.QualifierType == "" && r.QualifierCall == "" && !strings.ContainsAny(r.Qualifier, "$:>(") {
		// f(), A\f(): a function (a static call has its class as the
		// qualifier's type)
		return phpResolveFunction(ctx, r)
	}
	segs := phpSplitQualifier(r.Qualifier)
	var v csVal
	rest := segs[1:]
	head := segs[0]
	switch {
	case r.QualifierCall != "":
		v = phpCallResult(ctx, r.QualifierCall, r.QualifierType, depth)
		rest = nil
		for i := len(segs) - 1; i >= 0; i-- {
			if strings.HasSuffix(segs[i], ")") {
				rest = segs[i+1:]
				break
			}
			if i == 0 {
				rest = segs[1:]
			}
		}
	case strings.EqualFold(head, "parent"):
		return phpResolveParent(ctx, r, cls)
	case r.QualifierType != "":
		t, rule := phpResolveClass(tab, ctx.File, cls, r.QualifierType)
		v = csVal{t: t, ext: t == nil && rule == RuleExternal, rule: RuleReceiver}
		if len(segs) == 1 && !strings.HasPrefix(head, "$") && !strings.HasPrefix(head, "new ") && t != nil {
			v.rule = rule // self::m(), static::m()
			if t == cls && rule == RuleSameFile {
				v.rule = RuleSameFile
			}
		}
	case strings.HasPrefix(head, "$"):
		// a variable the extractor could not type
		return phpUnknownReceiver(tab, r.Name)
	case strings.HasPrefix(head, "new "):
		t, rule := phpResolveClass(tab, ctx.File, cls, strings.TrimSuffix(strings.TrimPrefix(head, "new "), "()"))
		v = csVal{t: t, ext: t == nil && rule == RuleExternal, rule: RuleReceiver}
	default:
		// Foo::m(): a static call
		t, rule := phpResolveClass(tab, ctx.File, cls, head)
		v = csVal{t: t, ext: t == nil && rule == RuleExternal, rule: rule}
	}
	for _, s := range rest {
		if v.t == nil {
			break
		}
		if strings.ContainsAny(s, "()[") {
			v = csVal{}
			break
		}
		ft, e, found := phpFieldType(tab, v.t, strings.TrimPrefix(s, "$"), 0)
		if !found {
			v = csVal{}
			break
		}
		v = csVal{t: ft, ext: e, rule: RuleReceiver}
	}
	if v.t == nil {
		if v.ext {
			return unbound(RuleExternal, 0)
		}
		return phpUnknownReceiver(tab, r.Name)
	}
	m, ext := phpFindMethod(tab, v.t, r.Name, 0)
	if m != nil {
		rule := v.rule
		if rule == RuleSameFile && m.Path != ctx.File.Path {
			rule = RuleReceiver
		}
		if rule == "" {
			rule = RuleReceiver
		}
		return bound(m, rule)
	}
	if ext {
		return unbound(RuleExternal, 0)
	}
	return unbound(RuleUnresolved, 0)
}

// phpSplitQualifier splits a qualifier at -> and :: outside parentheses:
// "$this->repo->find()->x" -> ["$this", "repo", "find()", "x"].
func phpSplitQualifier(q string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(q); i++ {
		switch q[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case '-':
			if depth == 0 && i+1 < len(q) && q[i+1] == '>' {
				out = append(out, q[start:i])
				start = i + 2
				i++
			}
		case ':':
			if depth == 0 && i+1 < len(q) && q[i+1] == ':' {
				out = append(out, q[start:i])
				start = i + 2
				i++
			}
		}
	}
	return append(out, q[start:])
}

// phpResolveFunction binds f() and A\f(): a use function binding, the
// namespace's function, then the global one (PHP's fallback).
func phpResolveFunction(ctx *Context, r *Ref) Resolution {
	tab, fi := ctx.Table, ctx.File
	name := r.Name
	if r.Qualifier == "" && phpBuiltins[strings.ToLower(name)] {
		return unbound(RuleBuiltin, 0)
	}
	var fqn string
	imported := false
	switch {
	case strings.HasPrefix(r.Qualifier, `\`):
		fqn, imported = phpJoin(strings.TrimPrefix(r.Qualifier, `\`), name), true
	case r.Qualifier != "":
		q, imp := phpQualify(fi, r.Qualifier+`\`+name)
		fqn, imported = q, imp
	default:
		if full, ok := phpUses(fi).funcs[strings.ToLower(name)]; ok {
			fqn, imported = full, true
		} else {
			fqn = phpJoin(fi.Module, name)
		}
	}
	rule := func(t *Target) string {
		switch {
		case t.Path == fi.Path:
			return RuleSameFile
		case imported:
			return RuleImport
		case strings.EqualFold(t.Module, fi.Module) && t.Module != "":
			return RuleSamePackage
		case phpIncluded(tab, fi)[t.Path]:
			return RuleImport
		}
		return RuleUniqueName
	}
	if t := phpFindFunction(tab, fqn, false); t != nil {
		return bound(t, rule(t))
	}
	if r.Qualifier == "" && !imported && fi.Module != "" {
		// the global function
		if t := phpFindFunction(tab, name, false); t != nil {
			return bound(t, rule(t))
		}
	}
	if len(pick(tab.ByName(name), func(t *Target) bool { return t.Kind == KindFunction && isPHPPath(t.Path) })) == 0 {
		return unbound(RuleExternal, 0) // PHP's own, or a library's
	}
	ns, _ := phpSplitName(fqn)
	if imported && !phpNamespaceOurs(tab, fi, ns) {
		return unbound(RuleExternal, 0)
	}
	return unbound(RuleUnresolved, 0)
}

// phpResolveParent binds parent::m() and parent::__construct().
func phpResolveParent(ctx *Context, r *Ref, cls *Target) Resolution {
	if cls == nil || len(cls.Bases) == 0 {
		return unbound(RuleUnresolved, 0)
	}
	bt, rule := phpResolveClass(ctx.Table, ctx.Table.File(cls.Path), nil, cls.Bases[0])
	if bt == nil {
		if rule == RuleExternal {
			return unbound(RuleExternal, 0)
		}
		return unbound(RuleUnresolved, 0)
	}
	if m, ext := phpFindMethod(ctx.Table, bt, r.Name, 0); m != nil {
		return bound(m, RuleReceiver)
	} else if ext || r.Name == "__construct" {
		return unbound(RuleExternal, 0)
	}
	return unbound(RuleUnresolved, 0)
}

// phpCallResult is the class a call returns, from its declared or
// documented return type.
func phpCallResult(ctx *Context, fn, headType string, depth int) csVal {
	segs := phpSplitQualifier(fn)
	r := &Ref{Kind: RefCall, Name: segs[len(segs)-1]}
	if len(segs) > 1 {
		q := fn[:len(fn)-len(r.Name)]
		q = strings.TrimSuffix(strings.TrimSuffix(q, "->"), "::")
		r.Qualifier = q
		r.QualifierType = headType
		if strings.HasSuffix(q, ")") {
			r.QualifierCall = strings.TrimSuffix(q, "()")
		}
	}
	if strings.ContainsAny(r.Name, "()[ $") {
		return csVal{}
	}
	res := phpResolve(ctx, r, depth+1)
	if res.Rule == RuleExternal {
		return csVal{ext: true}
	}
	m := res.Target
	if m == nil || m.Returns == "" {
		return csVal{}
	}
	mfi := ctx.Table.File(m.Path)
	if mfi == nil {
		return csVal{}
	}
	var owner *Target
	if m.Container != "" {
		owner = phpClassOf(&Context{File: mfi, Table: ctx.Table, From: m})
	}
	ret := strings.TrimPrefix(m.Returns, "?")
	if i := strings.IndexByte(ret, '|'); i >= 0 {
		ret = ret[:i]
	}
	t, rule := phpResolveClass(ctx.Table, mfi, owner, ret)
	return csVal{t: t, ext: t == nil && rule == RuleExternal, rule: RuleReceiver}
}

// phpUnknownReceiver binds a call on a value of unknown class: the only
// method of that name in the repository when the name is distinctive; a
// name no method of the repository has is a library's.
func phpUnknownReceiver(tab Table, name string) Resolution {
	ms := pick(tab.ByName(name), func(t *Target) bool { return t.Kind == KindMethod && isPHPPath(t.Path) })
	return uniqueMethod(ms, func(a, b *Target) bool { return a.Container == b.Container && a.Path == b.Path }, phpCommonMethods[name])
}
