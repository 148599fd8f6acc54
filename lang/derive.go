package lang

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// effect is a side effect that a call reveals.
type effect struct {
	kind string // fs.read, fs.write, network, database, process, env, exit
	text string
}

var (
	effRead    = effect{"fs.read", "reads files"}
	effWrite   = effect{"fs.write", "writes files"}
	effFS      = effect{"fs", "opens files"}
	effNet     = effect{"network", "network access"}
	effListen  = effect{"network", "listens on the network"}
	effDB      = effect{"database", "database access"}
	effProc    = effect{"process", "starts processes"}
	effSignal  = effect{"process", "signals processes"}
	effEnvRead = effect{"env", "reads environment variables"}
	effEnvSet  = effect{"env", "sets environment variables"}
	effExit    = effect{"exit", "exits the process"}
)

// effectRules is, per language, a table from "qualifier.name" (the
// qualifier's last segment) or "name" alone (a bare call) to an effect.
// methodEffects matches a method name on a qualifier that looks like a
// database or client handle.
type effectRules struct {
	calls   map[string]effect
	methods map[string]effect
	handle  *regexp.Regexp
}

var effectsByLang = map[string]*effectRules{}

func addEffects(langs []string, e effect, keys ...string) {
	for _, l := range langs {
		r := effectsByLang[l]
		if r == nil {
			r = &effectRules{calls: map[string]effect{}, methods: map[string]effect{}}
			effectsByLang[l] = r
		}
		for _, k := range keys {
			r.calls[k] = e
		}
	}
}

func addMethodEffects(langs []string, handle string, e effect, names ...string) {
	for _, l := range langs {
		r := effectsByLang[l]
		if r == nil {
			r = &effectRules{calls: map[string]effect{}, methods: map[string]effect{}}
			effectsByLang[l] = r
		}
		r.handle = regexp.MustCompile(handle)
		for _, n := range names {
			r.methods[n] = e
		}
	}
}

var (
	goL   = []string{"go"}
	pyL   = []string{"python"}
	jsL   = []string{"javascript", "typescript", "tsx"}
	javaL = []string{"java"}
	rsL   = []string{"rust"}
)

func init() {
	addEffects(goL, effRead, "os.Open", "os.ReadFile", "os.ReadDir", "os.Stat", "os.Lstat", "ioutil.ReadFile", "ioutil.ReadDir",
		"filepath.Walk", "filepath.WalkDir", "filepath.Glob", "fs.ReadFile", "fs.WalkDir", "os.Readlink")
	addEffects(goL, effWrite, "os.Create", "os.WriteFile", "os.Remove", "os.RemoveAll", "os.Rename", "os.Mkdir", "os.MkdirAll",
		"os.Chmod", "os.Chown", "os.Symlink", "os.Link", "ioutil.WriteFile", "os.Truncate", "os.CreateTemp", "os.MkdirTemp",
		"ioutil.TempFile", "ioutil.TempDir", "os.Chtimes")
	addEffects(goL, effFS, "os.OpenFile")
	addEffects(goL, effNet, "http.Get", "http.Post", "http.Head", "http.PostForm", "net.Dial", "net.DialTimeout", "tls.Dial",
		"grpc.Dial", "grpc.NewClient", "net.DialTCP", "net.DialUDP", "net.ResolveIPAddr", "net.LookupHost", "net.LookupIP")
	addEffects(goL, effListen, "http.ListenAndServe", "http.ListenAndServeTLS", "http.Serve", "net.Listen", "net.ListenPacket",
		"net.ListenTCP", "net.ListenUDP", "tls.Listen")
	addEffects(goL, effDB, "sql.Open")
	addEffects(goL, effProc, "exec.Command", "exec.CommandContext", "os.StartProcess", "syscall.Exec", "syscall.ForkExec")
	addEffects(goL, effSignal, "signal.Notify", "syscall.Kill")
	addEffects(goL, effEnvRead, "os.Getenv", "os.LookupEnv", "os.Environ", "os.ExpandEnv")
	addEffects(goL, effEnvSet, "os.Setenv", "os.Unsetenv", "os.Clearenv")
	addEffects(goL, effExit, "os.Exit", "log.Fatal", "log.Fatalf", "log.Fatalln", "syscall.Exit")
	addMethodEffects(goL, `(?i)(^|\.)(db|tx|conn|stmt|pool|database|sqldb)$`, effDB,
		"Query", "QueryRow", "Exec", "QueryContext", "QueryRowContext", "ExecContext", "Begin", "BeginTx", "Prepare", "PrepareContext", "Commit", "Rollback")

	addEffects(pyL, effFS, "open", "io.open", "codecs.open")
	addEffects(pyL, effRead, "os.listdir", "os.walk", "os.scandir", "os.stat", "glob.glob", "json.load", "pickle.load",
		"shutil.copyfileobj", "path.read_text", "path.read_bytes")
	addEffects(pyL, effWrite, "os.remove", "os.unlink", "os.rename", "os.replace", "os.makedirs", "os.mkdir", "os.rmdir",
		"os.chmod", "shutil.rmtree", "shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree", "shutil.move",
		"json.dump", "pickle.dump", "tempfile.mkstemp", "tempfile.mkdtemp")
	addEffects(pyL, effNet, "requests.get", "requests.post", "requests.put", "requests.delete", "requests.patch",
		"requests.head", "requests.request", "requests.Session", "request.urlopen", "urllib.urlopen", "urlopen",
		"httpx.get", "httpx.post", "httpx.Client", "httpx.AsyncClient", "socket.socket", "socket.create_connection",
		"aiohttp.ClientSession", "client.HTTPConnection", "client.HTTPSConnection", "smtplib.SMTP", "ftplib.FTP")
	addEffects(pyL, effDB, "sqlite3.connect", "psycopg2.connect", "pymysql.connect", "create_engine", "sqlalchemy.create_engine")
	addEffects(pyL, effProc, "subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output",
		"subprocess.Popen", "os.system", "os.popen", "os.execv", "os.execvp", "os.execve", "os.fork", "os.spawnv",
		"asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell")
	addEffects(pyL, effSignal, "os.kill", "signal.signal")
	addEffects(pyL, effEnvRead, "os.getenv", "environ.get")
	addEffects(pyL, effEnvSet, "os.putenv", "os.unsetenv", "environ.setdefault")
	addEffects(pyL, effExit, "sys.exit", "os._exit", "exit", "quit")
	addMethodEffects(pyL, `(?i)(^|\.)(db|cursor|cur|conn|connection|session|engine|tx)$`, effDB,
		"execute", "executemany", "executescript", "commit", "rollback", "fetchall", "fetchone", "query")

	addEffects(jsL, effRead, "fs.readFile", "fs.readFileSync", "fs.readdir", "fs.readdirSync", "fs.stat", "fs.statSync",
		"fs.existsSync", "fs.createReadStream", "fs.access", "fs.accessSync", "fs.lstat", "fs.lstatSync", "fs.realpath",
		"fs.realpathSync", "promises.readFile", "fsp.readFile", "fsPromises.readFile", "fs.opendir")
	addEffects(jsL, effWrite, "fs.writeFile", "fs.writeFileSync", "fs.appendFile", "fs.appendFileSync", "fs.unlink",
		"fs.unlinkSync", "fs.mkdir", "fs.mkdirSync", "fs.rm", "fs.rmSync", "fs.rmdir", "fs.rmdirSync", "fs.rename",
		"fs.renameSync", "fs.createWriteStream", "fs.copyFile", "fs.copyFileSync", "promises.writeFile", "fsp.writeFile",
		"fsPromises.writeFile", "fs.chmod", "fs.symlink")
	addEffects(jsL, effNet, "fetch", "axios.get", "axios.post", "axios.put", "axios.delete", "axios.patch", "axios.request",
		"axios", "http.request", "https.request", "http.get", "https.get", "net.connect", "net.createConnection",
		"WebSocket", "XMLHttpRequest", "EventSource", "io.connect")
	addEffects(jsL, effListen, "http.createServer", "https.createServer", "net.createServer")
	addEffects(jsL, effProc, "child_process.exec", "child_process.spawn", "child_process.execSync", "child_process.fork",
		"child_process.execFile", "child_process.spawnSync", "exec", "execSync", "spawn", "spawnSync", "execFile", "fork",
		"execa")
	addEffects(jsL, effSignal, "process.kill")
	addEffects(jsL, effExit, "process.exit")
	addEffects(jsL, effect{"storage", "uses browser storage"}, "localStorage.setItem", "localStorage.getItem",
		"localStorage.removeItem", "sessionStorage.setItem", "sessionStorage.getItem", "indexedDB.open")
	addMethodEffects(jsL, `(?i)(^|\.)(db|pool|client|conn|connection|knex|prisma|sequelize|tx|trx)$`, effDB,
		"query", "execute", "raw", "transaction", "findMany", "findUnique", "findFirst", "create", "update", "delete", "upsert")

	addEffects(javaL, effRead, "Files.readAllBytes", "Files.readAllLines", "Files.readString", "Files.lines", "Files.list",
		"Files.walk", "Files.newBufferedReader", "Files.newInputStream", "Files.exists", "Files.isDirectory",
		"FileInputStream", "FileReader", "Scanner")
	addEffects(javaL, effWrite, "Files.write", "Files.writeString", "Files.delete", "Files.deleteIfExists", "Files.createFile",
		"Files.createDirectory", "Files.createDirectories", "Files.copy", "Files.move", "Files.newBufferedWriter",
		"Files.newOutputStream", "Files.createTempFile", "FileOutputStream", "FileWriter", "PrintWriter", "RandomAccessFile")
	addEffects(javaL, effNet, "Socket", "URL", "HttpClient.newHttpClient", "HttpClient.newBuilder", "HttpURLConnection",
		"openConnection", "DatagramSocket")
	addEffects(javaL, effListen, "ServerSocket", "HttpServer.create")
	addEffects(javaL, effDB, "DriverManager.getConnection")
	addEffects(javaL, effProc, "ProcessBuilder", "getRuntime.exec")
	addEffects(javaL, effEnvRead, "System.getenv", "System.getProperty")
	addEffects(javaL, effEnvSet, "System.setProperty")
	addEffects(javaL, effExit, "System.exit", "Runtime.halt")
	addMethodEffects(javaL, `(?i)(^|\.)(stmt|statement|ps|conn|connection|db|jdbc|jdbcTemplate|em|entityManager|session)$`, effDB,
		"executeQuery", "executeUpdate", "execute", "prepareStatement", "createStatement", "query", "update", "persist", "merge", "createQuery")

	addEffects(rsL, effRead, "fs.read", "fs.read_to_string", "fs.read_dir", "fs.metadata", "File.open", "fs.canonicalize",
		"fs.read_link")
	addEffects(rsL, effWrite, "fs.write", "fs.remove_file", "fs.remove_dir", "fs.remove_dir_all", "fs.create_dir",
		"fs.create_dir_all", "fs.rename", "fs.copy", "File.create", "fs.set_permissions", "fs.hard_link")
	addEffects(rsL, effFS, "OpenOptions.new")
	addEffects(rsL, effNet, "TcpStream.connect", "UdpSocket.connect", "reqwest.get", "Client.new", "UnixStream.connect")
	addEffects(rsL, effListen, "TcpListener.bind", "UdpSocket.bind", "UnixListener.bind", "axum.serve", "Server.bind")
	addEffects(rsL, effProc, "Command.new")
	addEffects(rsL, effEnvRead, "env.var", "env.var_os", "env.vars", "env.args")
	addEffects(rsL, effEnvSet, "env.set_var", "env.remove_var")
	addEffects(rsL, effExit, "process.exit", "process.abort")
	addMethodEffects(rsL, `(?i)(^|\.)(conn|pool|db|client|tx|transaction)$`, effDB,
		"execute", "query", "query_one", "query_opt", "fetch_one", "fetch_all", "fetch_optional", "prepare")
}

// qualTail returns the last segment of a qualifier: "std::fs" -> "fs",
// "a.b.c" -> "c".
func qualTail(q string) string {
	if i := strings.LastIndex(q, "::"); i >= 0 {
		q = q[i+2:]
	}
	if i := strings.LastIndexByte(q, '.'); i >= 0 {
		q = q[i+1:]
	}
	return strings.TrimSuffix(q, "()")
}

// sideEffects derives the side effects of a symbol from its calls.
func sideEffects(l *Language, calls []Ref) []Fact {
	rules := effectsByLang[l.Name]
	if rules == nil {
		return nil
	}
	var out []Fact
	seen := map[string]bool{}
	for _, r := range calls {
		if r.Kind != RefCall && r.Kind != RefNew {
			continue
		}
		key := r.Name
		if r.Qualifier != "" {
			key = qualTail(r.Qualifier) + "." + r.Name
		}
		e, ok := rules.calls[key]
		if !ok && r.Qualifier != "" && rules.handle != nil {
			if me, mok := rules.methods[r.Name]; mok && rules.handle.MatchString(r.Qualifier) {
				e, ok = me, true
			}
		}
		if !ok || seen[e.text] {
			continue
		}
		seen[e.text] = true
		ev := r.Name
		if r.Qualifier != "" {
			ev = r.Qualifier + "." + r.Name
		}
		out = append(out, Fact{Kind: e.kind, Text: e.text, Line: r.Line, Evidence: shorten(ev, maxEvidence)})
	}
	return out
}

// SplitIdent splits an identifier into its lower-case words:
// "getHTTPResponse_v2" -> [get http response v2].
func SplitIdent(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r):
			// a new word starts at an upper-case letter that follows a
			// lower-case one, or that precedes one in an acronym run
			// (HTTPServer: HTTP, Server), except for a plural acronym
			// (IDs, URLs)
			if i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1])) {
				flush()
			} else if i > 0 && unicode.IsUpper(rs[i-1]) && i+1 < len(rs) && unicode.IsLower(rs[i+1]) && !pluralAcronym(rs, i) {
				flush()
			}
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return words
}

// pluralAcronym reports whether the upper-case rs[i] is followed by a lone
// "s" that ends the word: the D of "IDs".
func pluralAcronym(rs []rune, i int) bool {
	return i+1 < len(rs) && rs[i+1] == 's' && (i+2 == len(rs) || !unicode.IsLower(rs[i+2]))
}

// firstSentence returns the first sentence of a doc comment.
func firstSentence(doc string) string {
	doc = strings.TrimSpace(doc)
	// a blank line ends the first paragraph
	if i := strings.Index(doc, "\n\n"); i >= 0 {
		doc = doc[:i]
	}
	doc = oneLine(doc)
	for i := 0; i < len(doc); i++ {
		if doc[i] == '.' && (i+1 == len(doc) || doc[i+1] == ' ') {
			// not an abbreviation like "e.g." or "i.e."
			if i >= 3 && (doc[i-2] == '.' || doc[i-3:i] == " eg" || doc[i-3:i] == " ie") || i >= 1 && doc[i-1] >= '0' && doc[i-1] <= '9' {
				continue
			}
			return doc[:i+1]
		}
	}
	return shorten(doc, 240)
}

// summarize writes a one or two line summary: the doc's first sentence,
// or else a description made from the name, the signature and the calls.
func summarize(s *Symbol, calls []Ref, builtins map[string]bool) string {
	if s.Doc != "" {
		if fs := firstSentence(s.Doc); len(fs) > 3 {
			return shorten(fs, 240)
		}
	}
	words := SplitIdent(s.Name)
	phrase := strings.Join(words, " ")
	if r, size := utf8.DecodeRuneInString(phrase); size > 0 {
		phrase = string(unicode.ToUpper(r)) + phrase[size:]
	}
	var b strings.Builder
	switch s.Kind {
	case KindFunction, KindMethod, KindConstructor:
		if s.Kind == KindConstructor {
			b.WriteString("Constructs ")
			if s.Container != "" {
				b.WriteString(lastIdent(s.Container))
			} else {
				b.WriteString(s.Name)
			}
		} else {
			b.WriteString(phrase)
		}
		if s.Signature.Returns != "" {
			b.WriteString("; returns ")
			b.WriteString(shorten(s.Signature.Returns, 60))
		}
		var names []string
		seen := map[string]bool{}
		for _, c := range calls {
			if c.Kind != RefCall && c.Kind != RefNew || c.Qualifier == "" && builtins[c.Name] {
				continue
			}
			n := c.Name
			if c.Qualifier != "" && len(c.Qualifier) < 20 {
				n = c.Qualifier + "." + c.Name
			}
			if c.Kind == RefNew {
				n = "new " + n
			}
			if seen[n] {
				continue
			}
			seen[n] = true
			names = append(names, n)
			if len(names) == 4 {
				break
			}
		}
		if len(names) > 0 {
			b.WriteString("; calls ")
			b.WriteString(strings.Join(names, ", "))
		}
	case KindClass, KindInterface:
		b.WriteString(strings.ToUpper(s.Kind[:1]) + s.Kind[1:] + " " + s.Name)
		if len(s.Signature.Bases) > 0 {
			b.WriteString(" (" + shorten(strings.Join(s.Signature.Bases, ", "), 80) + ")")
		}
		if n := len(s.Signature.Fields); n > 0 {
			var fs []string
			for i, f := range s.Signature.Fields {
				if i == 5 {
					fs = append(fs, "...")
					break
				}
				fs = append(fs, f.Name)
			}
			b.WriteString(" with " + strings.Join(fs, ", "))
		}
	case KindModule:
		b.WriteString("Module " + s.Name)
	default:
		b.WriteString(phrase)
		if len(s.Signature.Fields) == 0 && s.Signature.Returns != "" {
			b.WriteString(": " + shorten(s.Signature.Returns, 80))
		}
	}
	return b.String()
}
