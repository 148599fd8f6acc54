package lang

import "strings"

// swBuiltins are the global functions of the Swift standard library.
var swBuiltins = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`print debugPrint dump assert assertionFailure precondition preconditionFailure
		fatalError min max abs zip stride sequence repeatElement type withUnsafePointer withUnsafeMutablePointer
		withUnsafeBytes withExtendedLifetime swap numericCast unsafeBitCast readLine isKnownUniquelyReferenced
		withCheckedContinuation withCheckedThrowingContinuation withTaskGroup withThrowingTaskGroup
		autoreleasepool MemoryLayout`) {
		swBuiltins[n] = true
	}
	for _, n := range strings.Fields(`String Int Int8 Int16 Int32 Int64 UInt UInt8 UInt16 UInt32 UInt64 Double Float
		Bool Character Array Dictionary Set Optional Result Error Never Void Any AnyObject AnyHashable Equatable
		Hashable Comparable Codable Encodable Decodable Identifiable CustomStringConvertible Sequence Collection
		IteratorProtocol RawRepresentable CaseIterable Sendable Range ClosedRange Substring Task TaskGroup
		MainActor Actor NSObject NSError Data Date URL URLSession URLRequest UUID JSONEncoder JSONDecoder
		FileManager ProcessInfo Bundle DispatchQueue NotificationCenter UserDefaults Decimal NSLock Process
		Published ObservableObject View Text Image Button VStack HStack ZStack List Color Font State Binding
		Environment EnvironmentObject StateObject ObservedObject XCTestCase XCTAssert XCTAssertEqual XCTAssertTrue
		XCTAssertFalse XCTAssertNil XCTAssertNotNil XCTAssertThrowsError XCTFail XCTUnwrap`) {
		swL.std[n] = true
	}
	for _, n := range strings.Fields(`append insert remove removeAll removeFirst removeLast contains first last
		count isEmpty map compactMap flatMap filter reduce forEach sorted sort reversed joined split index
		firstIndex lastIndex prefix suffix dropFirst dropLast enumerated description hash encode decode
		lowercased uppercased hasPrefix hasSuffix replacingOccurrences trimmingCharacters components
		data write read load save update delete create fetch get set run start stop cancel resume
		send receive close open makeIterator next min max allSatisfy updateValue removeValue keys values
		init deinit copy reset clear validate parse format render configure setup layoutSubviews viewDidLoad
		callAsFunction`) {
		swL.common[n] = true
	}
	l := ByName("swift")
	l.builtins = swBuiltins
	l.resolve = func(ctx *Context, r *Ref) Resolution { return swL.resolve(ctx, r, 0) }
	l.resolveImport = swL.resolveImport
	sw := []string{"swift"}
	addEffects(sw, effWrite, "FileManager.createFile", "FileManager.removeItem", "FileManager.createDirectory",
		"FileManager.moveItem", "FileManager.copyItem", "default.createFile", "default.removeItem",
		"default.createDirectory", "default.moveItem", "default.copyItem", "data.write", "fileHandle.write")
	addEffects(sw, effRead, "FileManager.contents", "default.contents", "default.fileExists",
		"default.contentsOfDirectory", "String.contentsOf", "Data.contentsOf", "FileHandle.forReadingAtPath")
	addEffects(sw, effNet, "URLSession.dataTask", "shared.dataTask", "shared.data", "session.data",
		"session.dataTask", "shared.download", "shared.upload", "session.upload", "URLSession.data")
	addEffects(sw, effEnvRead, "processInfo.environment", "ProcessInfo.environment")
	addEffects(sw, effProc, "Process.run", "process.run", "task.launch", "Process.launchedProcess")
	addEffects(sw, effExit, "exit", "Darwin.exit", "Foundation.exit")
}
