package lang

import (
	"path"
	"strings"
)

// javaLangTypes are the types of java.lang, which every file sees without
// an import.
var javaLangTypes = map[string]bool{
	"Object": true, "String": true, "System": true, "Math": true, "StrictMath": true, "Integer": true, "Long": true,
	"Short": true, "Byte": true, "Double": true, "Float": true, "Character": true, "Boolean": true, "Number": true,
	"Void": true, "StringBuilder": true, "StringBuffer": true, "CharSequence": true, "Thread": true, "ThreadLocal": true,
	"InheritableThreadLocal": true, "Runnable": true, "Class": true, "ClassLoader": true, "Enum": true, "Record": true,
	"Iterable": true, "Comparable": true, "AutoCloseable": true, "Cloneable": true, "Appendable": true, "Readable": true,
	"Runtime": true, "Process": true, "ProcessBuilder": true, "ProcessHandle": true, "StackTraceElement": true,
	"StackWalker": true, "Module": true, "ModuleLayer": true, "Package": true, "SecurityManager": true,
	"ThreadGroup": true, "Throwable": true, "Exception": true, "Error": true, "RuntimeException": true,
	"ArithmeticException": true, "ArrayIndexOutOfBoundsException": true, "ArrayStoreException": true,
	"ClassCastException": true, "ClassNotFoundException": true, "CloneNotSupportedException": true,
	"EnumConstantNotPresentException": true, "IllegalAccessException": true, "IllegalArgumentException": true,
	"IllegalCallerException": true, "IllegalMonitorStateException": true, "IllegalStateException": true,
	"IllegalThreadStateException": true, "IndexOutOfBoundsException": true, "InstantiationException": true,
	"InterruptedException": true, "NegativeArraySizeException": true, "NoSuchFieldException": true,
	"NoSuchMethodException": true, "NullPointerException": true, "NumberFormatException": true,
	"ReflectiveOperationException": true, "SecurityException": true, "StringIndexOutOfBoundsException": true,
	"TypeNotPresentException": true, "UnsupportedOperationException": true, "WrongThreadException": true,
	"MatchException": true, "AbstractMethodError": true, "AssertionError": true, "BootstrapMethodError": true,
	"ClassCircularityError": true, "ClassFormatError": true, "ExceptionInInitializerError": true,
	"IllegalAccessError": true, "IncompatibleClassChangeError": true, "InstantiationError": true,
	"InternalError": true, "LinkageError": true, "NoClassDefFoundError": true, "NoSuchFieldError": true,
	"NoSuchMethodError": true, "OutOfMemoryError": true, "StackOverflowError": true, "ThreadDeath": true,
	"UnknownError": true, "UnsatisfiedLinkError": true, "UnsupportedClassVersionError": true, "VerifyError": true,
	"VirtualMachineError": true, "Override": true, "Deprecated": true, "SuppressWarnings": true,
	"FunctionalInterface": true, "SafeVarargs": true,
}

// javaObjectMethods are inherited by every class; javaEnumMethods by every
// enum, which the index does not tell from other classes.
var javaObjectMethods = map[string]bool{
	"equals": true, "hashCode": true, "toString": true, "getClass": true, "clone": true, "finalize": true,
	"notify": true, "notifyAll": true, "wait": true,
	"values": true, "valueOf": true, "ordinal": true, "name": true, "compareTo": true, "getDeclaringClass": true,
	"describeConstable": true,
}

// javaCommonMethods are method names of the JDK's everyday types so
// widespread that a unique definition in the repository says little about
// which one a call on a value of unknown type means.
var javaCommonMethods = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`
		get set add addAll put putAll remove removeAll retainAll contains containsKey containsValue containsAll
		size isEmpty clear equals hashCode toString length append insert stream parallelStream map filter forEach
		collect iterator listIterator hasNext next close read write flush run call apply accept test compareTo
		compare valueOf of from copyOf getName getValue getKey getType getClass name value values keySet entrySet
		format parse start stop init build builder create execute toArray asList sort copy clone print println
		printf indexOf lastIndexOf substring charAt trim strip split replace replaceAll startsWith endsWith
		toLowerCase toUpperCase isBlank matches join concat subList first last peek poll offer push pop max min
		sum count reduce flatMap findFirst findAny anyMatch allMatch noneMatch orElse orElseThrow orElseGet
		isPresent ifPresent empty sorted distinct limit skip toList getMessage getCause printStackTrace
		getOrDefault computeIfAbsent computeIfPresent compute merge update delete find load save open reset
		handle process wait notify notifyAll lock unlock await submit shutdown interrupt sleep intValue
		longValue doubleValue floatValue booleanValue byteValue shortValue charValue getBytes toCharArray
		newInstance invoke getInstance visit hasMoreElements nextElement getId setId getSize getLength
		identity cast ordinal equalsIgnoreCase contentEquals hash check validate getDefault setValue
		getAttribute setAttribute log debug info warn error trace fatal isDebugEnabled isInfoEnabled
		getParent getPath getFile exists isFile isDirectory list accept andThen compose negate getAsInt
		getAsLong getAsDouble getAsBoolean describe add0 toMap toSet asMap entry getFirst getLast
		addFirst addLast removeFirst removeLast pollFirst pollLast peekFirst peekLast element descendingIterator
		headMap tailMap subMap headSet tailSet subSet firstKey lastKey floorKey ceilingKey higherKey lowerKey
		chars codePoints isAlive setName getState getResource getResourceAsStream toURI toURL getSimpleName
		isInstance isArray getComponentType getSuperclass getInterfaces getModifiers getDeclaredField
		getDeclaredMethod getDeclaredConstructor getField getMethod setAccessible isAccessible getAnnotation
		isAnnotationPresent getGenericType getGenericSuperclass getRawType getActualTypeArguments getOwnerType
		getUpperBounds getLowerBounds getTypeName getGenericComponentType
		`) {
		javaCommonMethods[n] = true
	}
	l := ByName("java")
	l.resolve = resolveJava
	l.resolveImport = resolveJavaImport
	// what derive.go's Java table misses: instance calls on the usual
	// names of files and connections
	addEffects(javaL, effNet, "url.openConnection", "url.openStream", "uri.toURL", "HttpClient.send", "client.send",
		"HttpRequest.newBuilder", "InetAddress.getByName", "SocketChannel.open", "AsynchronousSocketChannel.open")
	addEffects(javaL, effWrite, "file.delete", "file.mkdir", "file.mkdirs", "file.createNewFile", "file.renameTo",
		"Files.writeString", "Files.setPosixFilePermissions", "Files.createTempDirectory", "Files.createSymbolicLink",
		"FileUtils.writeStringToFile", "FileUtils.deleteDirectory", "FileUtils.forceDelete")
	addEffects(javaL, effRead, "file.exists", "file.listFiles", "file.list", "file.length", "Files.size",
		"Files.isRegularFile", "Files.newDirectoryStream", "FileUtils.readFileToString", "Paths.get.toFile")
	addEffects(javaL, effProc, "Runtime.exec", "getRuntime.exec", "pb.start", "processBuilder.start")
	addEffects(javaL, effEnvRead, "System.getProperties", "Boolean.getBoolean", "Integer.getInteger", "Long.getLong")
	addEffects(javaL, effExit, "getRuntime.halt", "getRuntime.exit", "Runtime.exit")
}

// javaBindings maps the names a file's single imports bind: a type's
// simple name to its single-type import, "\x00"+member to a single static
// import.
func javaBindings(fi *FileInfo) map[string]binding {
	return fi.bindingsWith(func() map[string]binding {
		m := map[string]binding{}
		for i := range fi.Imports {
			imp := &fi.Imports[i]
			switch {
			case len(imp.Names) == 0:
				_, name := javaLastSeg(imp.Source)
				m[name] = binding{imp: imp}
			case imp.Names[0].Name != "*":
				m["\x00"+imp.Names[0].Name] = binding{imp: imp, name: imp.Names[0].Name}
			}
		}
		return m
	})
}

// javaLastSeg splits "a.b.C" into "a.b" and "C".
func javaLastSeg(s string) (string, string) {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[:i], s[i+1:]
	}
	return "", s
}

func isJavaPath(p string) bool { return strings.HasSuffix(p, ".java") }

// javaPkgInRepo reports whether some file of the repository declares
// exactly package pkg.
func javaPkgInRepo(tab Table, pkg string) bool {
	if pkg == "" {
		return false
	}
	return tab.Memo("java.pkg\x00"+pkg, func() string {
		for _, f := range tab.ModuleFiles("java", pkg) {
			if fi := tab.File(f); fi != nil && fi.Module == pkg {
				return "1"
			}
		}
		return ""
	}) != ""
}

// javaTopType finds the top-level type name of package pkg; dir breaks
// ties between source roots that repeat a package (main and test).
func javaTopType(tab Table, pkg, name, dir string) *Target {
	cands := pick(tab.ByName(name), func(t *Target) bool {
		return t.Container == "" && isTypeKind(t.Kind) && t.Module == pkg && isJavaPath(t.Path)
	})
	if pkg == "" {
		cands = pick(cands, func(t *Target) bool { return t.Dir() == dir })
	}
	if len(cands) > 1 {
		if same := pick(cands, func(t *Target) bool { return t.Dir() == dir }); len(same) == 1 {
			return same[0]
		}
	}
	return one(preferDefinitions(cands))
}

// javaMember finds the member called name of kind (types when kind is
// "type") declared directly in type typ.
func javaMember(tab Table, typ *Target, name, kind string) *Target {
	q := typ.Qualified()
	for _, t := range tab.ByName(name) {
		if t.Path != typ.Path || t.Container != q {
			continue
		}
		if kind == "type" && isTypeKind(t.Kind) || t.Kind == kind {
			return t // the first of overloads
		}
	}
	return nil
}

// javaTypeByQualified finds the type of a file by its qualified name.
func javaTypeByQualified(tab Table, p, qualified string) *Target {
	container, name := javaLastSeg(qualified)
	for _, t := range tab.ByName(name) {
		if t.Path == p && t.Container == container && isTypeKind(t.Kind) {
			return t
		}
	}
	return nil
}

// javaEnclosingType is the innermost type whose qualified name is a prefix
// of container, in file p.
func javaEnclosingType(tab Table, p, container string) *Target {
	for container != "" {
		if t := javaTypeByQualified(tab, p, container); t != nil {
			return t
		}
		container, _ = javaLastSeg(container)
	}
	return nil
}

// javaClassOf is the class a reference is made in: the symbol itself when
// it is a type, else the type enclosing it.
func javaClassOf(ctx *Context) *Target {
	f := ctx.From
	if f == nil {
		return nil
	}
	if isTypeKind(f.Kind) {
		return f
	}
	return javaEnclosingType(ctx.Table, f.Path, f.Container)
}

// javaOuter is the type enclosing type t, or nil.
func javaOuter(tab Table, t *Target) *Target {
	return javaEnclosingType(tab, t.Path, t.Container)
}

// javaImportedType resolves a fully qualified type name. It returns the
// type, or external when no prefix of the name is a package of the
// repository.
func javaImportedType(tab Table, fq string) (*Target, bool) {
	segs := strings.Split(fq, ".")
	for k := len(segs) - 1; k >= 1; k-- {
		pkg := strings.Join(segs[:k], ".")
		if !javaPkgInRepo(tab, pkg) {
			continue
		}
		t := javaTopType(tab, pkg, segs[k], "")
		for _, s := range segs[k+1:] {
			if t == nil {
				break
			}
			t = javaMember(tab, t, s, "type")
		}
		return t, false
	}
	return nil, true
}

// javaResolveType resolves a type as written in file fi by code of the
// symbol whose qualified name is from (nested types of the classes around
// it are in scope). It returns the type and the rule that found it, or
// RuleExternal, or RuleUnresolved.
func javaResolveType(tab Table, fi *FileInfo, from, typ string) (*Target, string) {
	return javaResolveTypeIn(tab, fi, from, typ, true)
}

// javaResolveBase resolves a supertype named in the declaration of cls,
// where the member types cls inherits are not yet in scope (and looking
// there would go round in circles).
func javaResolveBase(tab Table, cls *Target, typ string) (*Target, string) {
	return javaResolveTypeIn(tab, tab.File(cls.Path), cls.Qualified(), typ, false)
}

func javaResolveTypeIn(tab Table, fi *FileInfo, from, typ string, inherited bool) (*Target, string) {
	typ = javaStripType(typ)
	typ = strings.TrimSuffix(typ, "...")
	if typ == "" || fi == nil {
		return nil, RuleUnresolved
	}
	if strings.HasSuffix(typ, "]") {
		return nil, RuleExternal // an array: Object's methods
	}
	switch typ {
	case "int", "long", "short", "byte", "char", "boolean", "float", "double", "void":
		return nil, RuleExternal
	}
	segs := strings.Split(typ, ".")
	t, rule := javaResolveSimpleType(tab, fi, from, segs[0], inherited)
	if t != nil {
		for _, s := range segs[1:] {
			if t = javaNestedType(tab, t, s, 0); t == nil {
				return nil, RuleUnresolved
			}
		}
		return t, rule
	}
	if rule == RuleExternal || len(segs) == 1 {
		return nil, rule
	}
	// a fully qualified name
	t, ext := javaImportedType(tab, typ)
	switch {
	case t != nil:
		if t.Module == fi.Module {
			return t, RuleSamePackage
		}
		return t, RuleImport
	case ext:
		return nil, RuleExternal
	}
	return nil, RuleUnresolved
}

// javaNestedType finds a member type of t, declared in it or inherited
// from its supertypes.
func javaNestedType(tab Table, t *Target, name string, depth int) *Target {
	if m := javaMember(tab, t, name, "type"); m != nil {
		return m
	}
	if depth > 4 {
		return nil
	}
	for _, b := range t.Bases {
		if bt, _ := javaResolveBase(tab, t, b); bt != nil && bt.ID != t.ID {
			if m := javaNestedType(tab, bt, name, depth+1); m != nil {
				return m
			}
		}
	}
	return nil
}

// javaResolveSimpleType resolves a simple type name, in the order Java
// scopes them: the classes around the code and their members, single-type
// imports, the package, java.lang, on-demand imports.
func javaResolveSimpleType(tab Table, fi *FileInfo, from, name string, inherited bool) (*Target, string) {
	// the file's own types, innermost first
	var best *Target
	for _, t := range tab.ByName(name) {
		if t.Path != fi.Path || !isTypeKind(t.Kind) {
			continue
		}
		if t.Container != "" && t.Container != from && !strings.HasPrefix(from, t.Container+".") {
			continue
		}
		if best == nil || len(t.Container) > len(best.Container) {
			best = t
		}
	}
	if best != nil {
		return best, RuleSameFile
	}
	// member types inherited by the classes around the code
	for c := javaEnclosingType(tab, fi.Path, from); inherited && c != nil; c = javaOuter(tab, c) {
		if m := javaNestedType(tab, c, name, 1); m != nil {
			return m, RuleSameFile
		}
	}
	if b, ok := javaBindings(fi)[name]; ok {
		t, ext := javaImportedType(tab, b.imp.Source)
		if t != nil {
			return t, RuleImport
		}
		if ext {
			return nil, RuleExternal
		}
		return nil, RuleUnresolved
	}
	// a member type brought by a static import
	if b, ok := javaBindings(fi)["\x00"+name]; ok {
		owner, ext := javaImportedType(tab, b.imp.Source)
		if owner != nil {
			if m := javaMember(tab, owner, name, "type"); m != nil {
				return m, RuleImport
			}
		} else if ext && isUpper(name) {
			return nil, RuleExternal
		}
	}
	if t := javaTopType(tab, fi.Module, name, path.Dir(fi.Path)); t != nil {
		if t.Path == fi.Path {
			return t, RuleSameFile
		}
		return t, RuleSamePackage
	}
	if javaLangTypes[name] {
		return nil, RuleExternal
	}
	extWild := false
	var found []*Target
	for i := range fi.Imports {
		imp := &fi.Imports[i]
		if len(imp.Names) == 0 || imp.Names[0].Name != "*" {
			continue
		}
		if javaPkgInRepo(tab, imp.Source) {
			if t := javaTopType(tab, imp.Source, name, ""); t != nil {
				found = append(found, t)
			}
			continue
		}
		owner, ext := javaImportedType(tab, imp.Source)
		switch {
		case owner != nil:
			if m := javaNestedType(tab, owner, name, 0); m != nil {
				found = append(found, m)
			}
		case ext:
			extWild = true
		}
	}
	if len(found) == 1 {
		return found[0], RuleImport
	}
	if len(found) > 1 {
		return nil, RuleAmbiguous
	}
	if extWild && isUpper(name) {
		return nil, RuleExternal
	}
	return nil, RuleUnresolved
}

// javaFindMethod finds method name of typ or of its supertypes. ext
// reports that the search met a supertype outside the repository, where
// the method may be.
func javaFindMethod(tab Table, typ *Target, name string, depth int) (m *Target, ext bool) {
	if m := javaMember(tab, typ, name, KindMethod); m != nil {
		return m, false
	}
	if depth > 6 {
		return nil, false
	}
	if len(typ.Bases) == 0 || typ.Kind == KindInterface {
		ext = javaObjectMethods[name]
	}
	for _, b := range typ.Bases {
		bt, rule := javaResolveBase(tab, typ, b)
		if bt == nil {
			ext = ext || rule == RuleExternal
			continue
		}
		if bt.ID == typ.ID {
			continue
		}
		m, e := javaFindMethod(tab, bt, name, depth+1)
		if m != nil {
			return m, false
		}
		ext = ext || e
	}
	if depth == 0 {
		// a record's component accessor: bind it to the component
		if f := javaMember(tab, typ, name, KindVariable); f != nil {
			return f, false
		}
	}
	return nil, ext
}

// javaFieldType is the type of field name of typ or of its supertypes.
// ext reports a supertype outside the repository.
func javaFieldType(tab Table, typ *Target, name string, depth int) (t *Target, ext bool) {
	fi := tab.File(typ.Path)
	for _, f := range typ.Fields {
		if f.Name == name {
			ft, rule := javaResolveType(tab, fi, typ.Qualified(), f.Type)
			return ft, rule == RuleExternal
		}
	}
	if depth > 6 {
		return nil, false
	}
	for _, b := range typ.Bases {
		bt, rule := javaResolveBase(tab, typ, b)
		if bt == nil {
			ext = ext || rule == RuleExternal
			continue
		}
		if bt.ID == typ.ID {
			continue
		}
		ft, e := javaFieldType(tab, bt, name, depth+1)
		if ft != nil || e {
			return ft, e
		}
	}
	return nil, ext
}

// javaHasField reports whether typ or one of its supertypes in the
// repository declares field name.
func javaHasField(tab Table, typ *Target, name string, depth int) bool {
	for _, f := range typ.Fields {
		if f.Name == name {
			return true
		}
	}
	if depth > 6 {
		return false
	}
	for _, b := range typ.Bases {
		if bt, _ := javaResolveBase(tab, typ, b); bt != nil && bt.ID != typ.ID {
			if javaHasField(tab, bt, name, depth+1) {
				return true
			}
		}
	}
	return false
}

func resolveJavaImport(ctx *Context, imp *Import, name string) Resolution {
	tab := ctx.Table
	switch name {
	case "":
		t, ext := javaImportedType(tab, imp.Source)
		if t != nil {
			return bound(t, RuleImport)
		}
		if ext {
			return unbound(RuleExternal, 0)
		}
	case "*":
		if javaPkgInRepo(tab, imp.Source) {
			var first string
			for _, f := range tab.ModuleFiles("java", imp.Source) {
				if fi := tab.File(f); fi == nil || fi.Module != imp.Source {
					continue
				}
				if first == "" {
					first = f
				}
				if !isTestPath(f) {
					first = f
					break
				}
			}
			if t := moduleTarget(tab, first); t != nil {
				return bound(t, RuleImport)
			}
			return unbound(RuleUnresolved, 0)
		}
		t, ext := javaImportedType(tab, imp.Source)
		if t != nil {
			return bound(t, RuleImport)
		}
		if ext {
			return unbound(RuleExternal, 0)
		}
	default:
		owner, ext := javaImportedType(tab, imp.Source)
		if owner == nil {
			if ext {
				return unbound(RuleExternal, 0)
			}
			return unbound(RuleUnresolved, 0)
		}
		for _, kind := range []string{KindMethod, KindVariable, "type"} {
			if m := javaMember(tab, owner, name, kind); m != nil {
				return bound(m, RuleImport)
			}
		}
		if m, ext := javaFindMethod(tab, owner, name, 0); m != nil {
			return bound(m, RuleImport)
		} else if ext {
			return unbound(RuleExternal, 0)
		}
	}
	return unbound(RuleUnresolved, 0)
}

func resolveJava(ctx *Context, r *Ref) Resolution {
	return javaResolve(ctx, r, 0)
}

// javaFrom is the qualified name of the symbol a reference is made in,
// which scopes nested type names.
func javaFrom(ctx *Context) string {
	if ctx.From == nil || ctx.From.Kind == KindModule {
		return ""
	}
	return ctx.From.Qualified()
}

func javaResolve(ctx *Context, r *Ref, depth int) Resolution {
	if depth > 6 {
		return unbound(RuleUnresolved, 0)
	}
	switch r.Kind {
	case RefNew, RefExtends, RefImplements:
		typ := r.Name
		if r.Qualifier != "" {
			typ = r.Qualifier + "." + r.Name
		}
		t, rule := javaResolveType(ctx.Table, ctx.File, javaFrom(ctx), typ)
		if t != nil && ctx.From != nil && t.ID == ctx.From.ID && r.Kind != RefNew {
			// class Foo extends a Foo of elsewhere: not itself
			return unbound(RuleUnresolved, 0)
		}
		if t != nil {
			return bound(t, rule)
		}
		return unbound(rule, 0)
	}
	if r.Qualifier == "" {
		return javaResolveBare(ctx, r)
	}
	return javaResolveQualified(ctx, r, depth)
}

// javaResolveBare binds m(): a method of the class the call is in or of
// its supertypes, then of the classes around it, then a static import.
func javaResolveBare(ctx *Context, r *Ref) Resolution {
	tab := ctx.Table
	ext := false
	if r.QualifierType != "" {
		// in an anonymous class body: its base type comes first
		if typ, rule := javaResolveType(tab, ctx.File, javaFrom(ctx), r.QualifierType); typ != nil {
			if m, _ := javaFindMethod(tab, typ, r.Name, 0); m != nil {
				return bound(m, RuleReceiver)
			}
		} else if rule == RuleExternal {
			ext = true
		}
	}
	for c := javaClassOf(ctx); c != nil; c = javaOuter(tab, c) {
		if m := javaMember(tab, c, r.Name, KindMethod); m != nil {
			return bound(m, RuleSameFile)
		}
		m, e := javaFindMethod(tab, c, r.Name, 0)
		if m != nil && m.Kind == KindMethod {
			return bound(m, RuleReceiver)
		}
		ext = ext || e
	}
	if b, ok := javaBindings(ctx.File)["\x00"+r.Name]; ok {
		owner, e := javaImportedType(tab, b.imp.Source)
		if owner != nil {
			if m, _ := javaFindMethod(tab, owner, r.Name, 0); m != nil {
				return bound(m, RuleImport)
			}
		} else if e {
			return unbound(RuleExternal, 0)
		}
	}
	for i := range ctx.File.Imports {
		imp := &ctx.File.Imports[i]
		if len(imp.Names) == 0 || imp.Names[0].Name != "*" || javaPkgInRepo(tab, imp.Source) {
			continue
		}
		owner, e := javaImportedType(tab, imp.Source)
		if owner != nil {
			if m, _ := javaFindMethod(tab, owner, r.Name, 0); m != nil {
				return bound(m, RuleImport)
			}
		} else if e {
			// import static org.junit.Assert.*; a package's types do
			// not hold methods
			_, last := javaLastSeg(imp.Source)
			ext = ext || isUpper(last)
		}
	}
	if ext || javaObjectMethods[r.Name] {
		return unbound(RuleExternal, 0)
	}
	return javaUniqueMethod(tab, r.Name)
}

// javaSplitQualifier splits a qualifier at its dots, keeping parenthesized
// parts whole: "((Foo) x).y" -> ["((Foo) x)", "y"].
func javaSplitQualifier(q string) []string {
	var out []string
	depth, start, i := 0, 0, 0
	if strings.HasPrefix(q, "new ") {
		// new a.b.C(): one part, dots and all
		if j := strings.IndexByte(q, '('); j >= 0 {
			i = j
		}
	}
	for ; i < len(q); i++ {
		switch q[i] {
		case '(', '<', '[':
			depth++
		case ')', '>', ']':
			depth--
		case '.':
			if depth == 0 {
				out = append(out, q[start:i])
				start = i + 1
			}
		}
	}
	return append(out, q[start:])
}

func javaResolveQualified(ctx *Context, r *Ref, depth int) Resolution {
	tab := ctx.Table
	q := r.Qualifier
	cls := javaClassOf(ctx)
	var typ *Target
	rule := RuleReceiver
	weak := false // a step was bound by unique name only
	segs := javaSplitQualifier(q)
	rest := segs[1:]
	self := segs[0] == "this" || segs[0] == "super"
	switch {
	case self && r.QualifierType != "" && (segs[0] == "super" || cls == nil || r.QualifierType != cls.Qualified()):
		// this and super in an anonymous class body: its base type
		t, tr := javaResolveType(tab, ctx.File, javaFrom(ctx), r.QualifierType)
		if tr == RuleExternal {
			return unbound(RuleExternal, 0)
		}
		if t == nil {
			return javaUniqueMethod(tab, r.Name)
		}
		typ = t
	case self && cls == nil:
		return unbound(RuleUnresolved, 0)
	case q == "super":
		return javaResolveSuper(ctx, r, cls)
	case q == "this" && r.Name == cls.Name:
		// this(...): another constructor of the class
		if c := javaConstructor(tab, cls, ctx.From); c != nil {
			return bound(c, RuleSameFile)
		}
		typ = cls
	case segs[0] == "this":
		typ = cls
	case r.QualifierCall != "":
		// a.b().m(), or x = a.b(); x.m(): the type b returns
		t, ext, w := javaCallResult(ctx, r.QualifierCall, r.QualifierType, depth)
		if t == nil {
			return javaUnknownReceiver(tab, r.Name, ext)
		}
		typ, weak = t, w
		if strings.HasSuffix(q, ")") {
			rest = nil
		}
	case r.QualifierType != "":
		t, tr := javaResolveType(tab, ctx.File, javaFrom(ctx), r.QualifierType)
		if tr == RuleExternal {
			return unbound(RuleExternal, 0) // a method of a library type
		}
		if t == nil {
			return javaUniqueMethod(tab, r.Name)
		}
		typ = t
	default:
		head := segs[0]
		if strings.HasPrefix(head, "new ") || strings.HasPrefix(head, "(") || strings.HasPrefix(head, `"`) {
			return javaUniqueMethod(tab, r.Name)
		}
		// a field inherited by the class, which the extractor could not see
		for c := cls; c != nil && typ == nil; c = javaOuter(tab, c) {
			if isUpper(head) && !javaHasField(tab, c, head, 0) {
				continue
			}
			if t, ext := javaFieldType(tab, c, head, 0); t != nil {
				typ = t
			} else if ext && javaHasField(tab, c, head, 0) {
				return javaUnknownReceiver(tab, r.Name, true)
			}
		}
		if typ == nil {
			// a type: Type.m(), Outer.Inner.m(), a.b.Type.m()
			t, tr, used := javaQualifierType(ctx, segs)
			switch {
			case t != nil:
				typ, rule, rest = t, tr, segs[used:]
			case tr == RuleExternal:
				return unbound(RuleExternal, 0)
			default:
				return javaUniqueMethod(tab, r.Name)
			}
		}
	}
	for _, s := range rest {
		if strings.ContainsAny(s, "()[") {
			return javaUniqueMethod(tab, r.Name)
		}
		ft, ext := javaFieldType(tab, typ, s, 0)
		if ft == nil {
			if nt := javaNestedType(tab, typ, s, 0); nt != nil {
				typ = nt
				continue
			}
			return javaUnknownReceiver(tab, r.Name, ext)
		}
		typ, rule = ft, RuleReceiver
	}
	m, ext := javaFindMethod(tab, typ, r.Name, 0)
	if m != nil {
		if weak {
			rule = RuleUniqueName
		}
		return bound(m, rule)
	}
	if ext {
		return unbound(RuleExternal, 0)
	}
	return unbound(RuleUnresolved, 0)
}

// javaQualifierType resolves the longest leading part of a qualifier
// that names a type. used is how many segments it took.
func javaQualifierType(ctx *Context, segs []string) (t *Target, rule string, used int) {
	tab := ctx.Table
	head := javaStripType(segs[0])
	t, rule = javaResolveSimpleType(tab, ctx.File, javaFrom(ctx), head, true)
	if t != nil {
		used = 1
		for used < len(segs) {
			nt := javaNestedType(tab, t, segs[used], 0)
			if nt == nil {
				break
			}
			t = nt
			used++
		}
		return t, rule, used
	}
	if rule == RuleExternal || len(segs) == 1 || isUpper(head) {
		return nil, rule, 0
	}
	// a.b.Type: a package, then a type
	for k := len(segs) - 1; k >= 1; k-- {
		pkg := strings.Join(segs[:k], ".")
		if !javaPkgInRepo(tab, pkg) {
			continue
		}
		t = javaTopType(tab, pkg, javaStripType(segs[k]), "")
		if t == nil {
			return nil, RuleUnresolved, 0
		}
		used = k + 1
		for used < len(segs) {
			nt := javaNestedType(tab, t, segs[used], 0)
			if nt == nil {
				break
			}
			t = nt
			used++
		}
		if t.Module == ctx.File.Module {
			return t, RuleSamePackage, used
		}
		return t, RuleImport, used
	}
	// a lower-case head that is no variable, field or package of ours:
	// java.util.Objects.m(), or a variable the extractor could not see
	for _, s := range segs[1:] {
		if isUpper(s) {
			return nil, RuleExternal, 0
		}
	}
	return nil, RuleUnresolved, 0
}

// javaResolveSuper binds super.m() and super(...).
func javaResolveSuper(ctx *Context, r *Ref, cls *Target) Resolution {
	tab := ctx.Table
	ext := len(cls.Bases) == 0
	for i, b := range cls.Bases {
		bt, rule := javaResolveBase(tab, cls, b)
		if bt == nil {
			if i == 0 && rule == RuleExternal {
				ext = true
			}
			continue
		}
		if i == 0 && r.Name == bt.Name {
			// super(...): a constructor of the superclass
			if c := javaConstructor(tab, bt, nil); c != nil {
				return bound(c, RuleReceiver)
			}
			return bound(bt, RuleReceiver)
		}
		m, e := javaFindMethod(tab, bt, r.Name, 0)
		if m != nil {
			return bound(m, RuleReceiver)
		}
		ext = ext || e
	}
	if ext || javaObjectMethods[r.Name] {
		return unbound(RuleExternal, 0)
	}
	return unbound(RuleUnresolved, 0)
}

// javaConstructor is the first constructor of typ other than self.
func javaConstructor(tab Table, typ, self *Target) *Target {
	q := typ.Qualified()
	for _, t := range tab.ByName(typ.Name) {
		if t.Kind == KindConstructor && t.Path == typ.Path && t.Container == q && (self == nil || t.ID != self.ID) {
			return t
		}
	}
	return nil
}

// javaCallResult is the type a call returns: fn is the call as the
// extractor rendered it ("a.b().c"), headType the type of its first part.
// ext reports a call bound outside the repository; weak a call bound by
// unique name only.
func javaCallResult(ctx *Context, fn, headType string, depth int) (t *Target, ext, weak bool) {
	r := &Ref{Kind: RefCall, Name: fn}
	segs := javaSplitQualifier(fn)
	if len(segs) > 1 {
		r.Name = segs[len(segs)-1]
		r.Qualifier = fn[:len(fn)-len(r.Name)-1]
		r.QualifierType = headType
		if strings.HasSuffix(r.Qualifier, ")") && !strings.HasPrefix(segs[len(segs)-2], "new ") {
			r.QualifierCall = strings.TrimSuffix(r.Qualifier, "()")
		}
	}
	if strings.ContainsAny(r.Name, "()[ ") {
		return nil, false, false
	}
	res := javaResolve(ctx, r, depth+1)
	if res.Rule == RuleExternal {
		return nil, true, false
	}
	if res.Target == nil || res.Target.Kind == KindConstructor || isTypeKind(res.Target.Kind) {
		return nil, false, false
	}
	t, rule := javaResolveType(ctx.Table, ctx.Table.File(res.Target.Path), res.Target.Qualified(), res.Target.Returns)
	return t, t == nil && rule == RuleExternal, res.Rule == RuleUniqueName
}

// javaUnknownReceiver binds a method call on a value of unknown type: when
// the type is known to be outside the repository and no method of that
// name is in it, the call is external; else by unique name.
func javaUnknownReceiver(tab Table, name string, ext bool) Resolution {
	res := javaUniqueMethod(tab, name)
	if ext && res.Target == nil && res.Rule != RuleAmbiguous {
		return unbound(RuleExternal, 0)
	}
	if ext && javaCommonMethods[name] {
		return unbound(RuleExternal, 0)
	}
	return res
}

// javaUniqueMethod binds a call whose receiver type is unknown to the only
// method of that name in the repository (its overloads count as one), if
// the name is distinctive. A name no Java symbol of the repository has is
// external.
func javaUniqueMethod(tab Table, name string) Resolution {
	ms := pick(tab.ByName(name), func(t *Target) bool { return t.Kind == KindMethod && isJavaPath(t.Path) })
	if len(ms) == 0 {
		return unbound(RuleExternal, 0)
	}
	first := ms[0]
	for _, m := range ms[1:] {
		if m.Path != first.Path || m.Container != first.Container {
			return unbound(RuleAmbiguous, len(ms))
		}
	}
	if javaCommonMethods[name] {
		return unbound(RuleUnresolved, 1)
	}
	return bound(first, RuleUniqueName)
}
