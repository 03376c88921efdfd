/// SQL as the dialects people write share it (ANSI, PostgreSQL, MySQL, SQLite), with
/// Pygments' `sql` lexer's choices: its keyword list (ignoring case) is `keyword`, its
/// type names are `builtin`, function calls and other names stay plain, `"quoted
/// identifiers"` are strings like `'literals'` (both may span lines; a doubled quote
/// stays inside), `/* */` comments nest, and each of `+ - * / < > = ~ ! @ # % ^ & | ? \``
/// is an operator.
///
/// Where we differ, on purpose: a number's fraction and exponent belong to it (`3.14`,
/// `1e-9`), and PostgreSQL's dollar quotes are understood. A `$tag$` that ends its line
/// opens a function body (`AS $$` … `$$`): the body is lexed as SQL, as Pygments'
/// PostgreSQL lexer does for `LANGUAGE sql`/`plpgsql`, and it ends at the first
/// matching `$tag$` whatever comes before it, as in PostgreSQL. A `$tag$` with text
/// after it on its line opens a string literal instead (`$$it's$$`).
struct SQLLexer: LineLexer {
    // Modes (the low byte of `state.mode`); `inBody` is a flag bit on top of them.
    private static let inComment: UInt16 = 1
    private static let inSingle: UInt16 = 2
    private static let inDouble: UInt16 = 3
    private static let inDollarString: UInt16 = 4
    /// Inside a dollar-quoted body: `state.terminator` starts with the body's `$tag$`
    /// (followed by a 0 and a nested dollar string's tag while one is open).
    private static let inBody: UInt16 = 0x100
    /// Tags longer than this are not taken as dollar quotes (keeps the state bounded).
    private static let maxTag = 30

    // The word lists, as flags of one table (a type name that is also a keyword is a keyword).
    private static let keyword: UInt32 = 1
    private static let type: UInt32 = 2

    private static let words = WordTable([
        (keyword, """
        ABORT ABS ABSOLUTE ACCESS ADA ADD ADMIN AFTER AGGREGATE ALIAS ALL ALLOCATE ALTER ANALYSE ANALYZE AND ANY ARE AS ASC
        ASENSITIVE ASSERTION ASSIGNMENT ASYMMETRIC AT ATOMIC AUTHORIZATION AVG BACKWARD BEFORE BEGIN BETWEEN BITVAR
        BIT_LENGTH BOTH BREADTH BY C CACHE CALL CALLED CARDINALITY CASCADE CASCADED CASE CAST CATALOG CATALOG_NAME CHAIN
        CHARACTERISTICS CHARACTER_LENGTH CHARACTER_SET_CATALOG CHARACTER_SET_NAME CHARACTER_SET_SCHEMA CHAR_LENGTH CHECK
        CHECKED CHECKPOINT CLASS CLASS_ORIGIN CLOB CLOSE CLUSTER COALESCE COBOL COLLATE COLLATION COLLATION_CATALOG
        COLLATION_NAME COLLATION_SCHEMA COLUMN COLUMN_NAME COMMAND_FUNCTION COMMAND_FUNCTION_CODE COMMENT COMMIT COMMITTED
        COMPLETION CONDITION_NUMBER CONNECT CONNECTION CONNECTION_NAME CONSTRAINT CONSTRAINTS CONSTRAINT_CATALOG
        CONSTRAINT_NAME CONSTRAINT_SCHEMA CONSTRUCTOR CONTAINS CONTINUE CONVERSION CONVERT COPY CORRESPONDING COUNT CREATE
        CREATEDB CREATEUSER CROSS CUBE CURRENT CURRENT_DATE CURRENT_PATH CURRENT_ROLE CURRENT_TIME CURRENT_TIMESTAMP
        CURRENT_USER CURSOR CURSOR_NAME CYCLE DATA DATABASE DATETIME_INTERVAL_CODE DATETIME_INTERVAL_PRECISION DAY
        DEALLOCATE DECLARE DEFAULT DEFAULTS DEFERRABLE DEFERRED DEFINED DEFINER DELETE DELIMITER DELIMITERS DEREF DESC
        DESCRIBE DESCRIPTOR DESTROY DESTRUCTOR DETERMINISTIC DIAGNOSTICS DICTIONARY DISCONNECT DISPATCH DISTINCT DO DOMAIN
        DROP DYNAMIC DYNAMIC_FUNCTION DYNAMIC_FUNCTION_CODE EACH ELSE ELSIF ENCODING ENCRYPTED END EQUALS ESCAPE
        EVERY EXCEPTION EXCEPT EXCLUDING EXCLUSIVE EXEC EXECUTE EXISTING EXISTS EXPLAIN EXTERNAL EXTRACT FALSE FETCH FINAL
        FIRST FOR FORCE FOREIGN FORTRAN FORWARD FOUND FREE FREEZE FROM FULL FUNCTION G GENERAL GENERATED GET GLOBAL GO GOTO
        GRANT GRANTED GROUP GROUPING HANDLER HAVING HIERARCHY HOLD HOST IDENTITY IF IGNORE ILIKE IMMEDIATE IMMEDIATELY
        IMMUTABLE IMPLEMENTATION IMPLICIT IN INCLUDING INCREMENT INDEX INDITCATOR INFIX INHERITS INITIALIZE INITIALLY INNER
        INOUT INPUT INSENSITIVE INSERT INSTANTIABLE INSTEAD INTERSECT INTO INVOKER IS ISNULL ISOLATION ITERATE JOIN KEY
        KEY_MEMBER KEY_TYPE LANCOMPILER LANGUAGE LARGE LAST LATERAL LEADING LEFT LENGTH LESS LEVEL LIKE LIMIT LISTEN LOAD
        LOCAL LOCALTIME LOCALTIMESTAMP LOCATION LOCATOR LOCK LOWER MAP MATCH MAX MAXVALUE MESSAGE_LENGTH
        MESSAGE_OCTET_LENGTH MESSAGE_TEXT METHOD MIN MINUTE MINVALUE MOD MODE MODIFIES MODIFY MONTH MORE MOVE MUMPS NAMES
        NATIONAL NATURAL NCHAR NCLOB NEW NEXT NO NOCREATEDB NOCREATEUSER NONE NOT NOTHING NOTIFY NOTNULL NULL NULLABLE
        NULLIF OBJECT OCTET_LENGTH OF OFF OFFSET OIDS OLD ON ONLY OPEN OPERATION OPERATOR OPTION OPTIONS OR ORDER
        ORDINALITY OUT OUTER OUTPUT OVERLAPS OVERLAY OVERRIDING OWNER PAD PARAMETER PARAMETERS PARAMETER_MODE
        PARAMETER_NAME PARAMETER_ORDINAL_POSITION PARAMETER_SPECIFIC_CATALOG PARAMETER_SPECIFIC_NAME
        PARAMETER_SPECIFIC_SCHEMA PARTIAL PASCAL PENDANT PERIOD PLACING PLI POSITION POSTFIX PRECEEDS PRECISION PREFIX
        PREORDER PREPARE PRESERVE PRIMARY PRIOR PRIVILEGES PROCEDURAL PROCEDURE PUBLIC READ READS RECHECK RECURSIVE REF
        REFERENCES REFERENCING REINDEX RELATIVE RENAME REPEATABLE REPLACE RESET RESTART RESTRICT RESULT RETURN
        RETURNED_LENGTH RETURNED_OCTET_LENGTH RETURNED_SQLSTATE RETURNS REVOKE RIGHT ROLE ROLLBACK ROLLUP ROUTINE
        ROUTINE_CATALOG ROUTINE_NAME ROUTINE_SCHEMA ROW ROWS ROW_COUNT RULE SAVE_POINT SCALE SCHEMA SCHEMA_NAME SCOPE
        SCROLL SEARCH SECOND SECURITY SELECT SELF SENSITIVE SERIALIZABLE SERVER_NAME SESSION SESSION_USER SET SETOF SETS
        SHARE SHOW SIMILAR SIMPLE SIZE SOME SOURCE SPACE SPECIFIC SPECIFICTYPE SPECIFIC_NAME SQL SQLCODE SQLERROR
        SQLEXCEPTION SQLSTATE SQLWARNINIG STABLE START STATE STATEMENT STATIC STATISTICS STDIN STDOUT STORAGE STRICT
        STRUCTURE STYPE SUBCLASS_ORIGIN SUBLIST SUBSTRING SUCCEEDS SUM SYMMETRIC SYSID SYSTEM SYSTEM_USER TABLE TABLE_NAME
        TEMP TEMPLATE TEMPORARY TERMINATE THAN THEN TIME TIMESTAMP TIMEZONE_HOUR TIMEZONE_MINUTE TO TOAST TRAILING
        TRANSACTION TRANSACTIONS_COMMITTED TRANSACTIONS_ROLLED_BACK TRANSACTION_ACTIVE TRANSFORM TRANSFORMS TRANSLATE
        TRANSLATION TREAT TRIGGER TRIGGER_CATALOG TRIGGER_NAME TRIGGER_SCHEMA TRIM TRUE TRUNCATE TRUSTED TYPE UNCOMMITTED
        UNDER UNENCRYPTED UNION UNIQUE UNKNOWN UNLISTEN UNNAMED UNNEST UNTIL UPDATE UPPER USAGE USER
        USER_DEFINED_TYPE_CATALOG USER_DEFINED_TYPE_NAME USER_DEFINED_TYPE_SCHEMA USING VACUUM VALID VALIDATOR VALUES
        VARIABLE VERBOSE VERSION VERSIONS VERSIONING VIEW VOLATILE WHEN WHENEVER WHERE WITH WITHOUT WORK WRITE YEAR ZONE
        """),
        (type, """
        ARRAY BIGINT BINARY BIT BLOB BOOLEAN CHAR CHARACTER DATE DEC DECIMAL FLOAT INT INTEGER INTERVAL NUMBER NUMERIC
        REAL SERIAL SMALLINT VARCHAR VARYING INT8 SERIAL8 TEXT
        """),
    ], ignoringCase: true)

    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {
        // A body ends at its tag's first occurrence, even inside a string or comment of the body.
        if state.mode & Self.inBody != 0 {
            let bodyTag = Self.bodyTagCount(state.terminator)
            if let close = Self.find(state.terminator, 0..<bodyTag, in: line, from: 0) {
                lexSpan(line, from: 0, to: close, state: &state, into: &sink)
                sink.add(close, close + bodyTag, .string)
                state = LexState()
                // The rest of the line may open another body.
                lexSpan(line, from: close + bodyTag, to: line.count, state: &state, into: &sink)
                return
            }
        }
        lexSpan(line, from: 0, to: line.count, state: &state, into: &sink)
    }

    /// Lexes `line[from..<to]` (a body's closing tag is at `to`, or the line ends there).
    private func lexSpan(_ line: UnsafeBufferPointer<UInt8>, from: Int, to: Int, state: inout LexState, into sink: inout TokenSink) {
        let span = UnsafeBufferPointer(rebasing: line[0..<to])
        var c = LineCursor(span, at: from)
        let body = state.mode & Self.inBody
        let words = Self.words
        switch state.mode & 0xFF {
        case Self.inComment:
            blockComment(&c, state: &state, into: &sink)
        case Self.inSingle, Self.inDouble:
            let quote: UInt8 = state.mode & 0xFF == Self.inSingle ? 0x27 : 0x22
            if quoted(&c, quote, into: &sink) { state.mode = body }
        case Self.inDollarString:
            let start = c.pos
            let tagStart = body != 0 ? Self.bodyTagCount(state.terminator) + 1 : 0
            if let close = Self.find(state.terminator, tagStart..<state.terminator.count, in: span, from: c.pos) {
                c.pos = close + state.terminator.count - tagStart
                state.mode = body
                state.terminator.removeSubrange(max(0, tagStart - 1)...)
            } else {
                c.skipToEnd()
            }
            sink.add(start, c.pos, .string)
        default:
            break
        }
        guard state.mode & 0xFF == 0 else { return }

        while !c.atEnd {
            if c.skipSpaces() { continue }
            let start = c.pos
            let b = c.peek()
            switch b {
            case 0x2D where c.peek(1) == 0x2D:  // --
                c.skipToEnd()
                sink.add(start, c.pos, .comment)
            case 0x2F where c.peek(1) == 0x2A:  // /*
                c.pos += 2
                state.mode = body | Self.inComment
                state.depth = 1
                sink.add(start, c.pos, .comment)
                blockComment(&c, state: &state, into: &sink)
                if state.mode & 0xFF != 0 { return }
            case 0x27, 0x22:
                c.pos += 1
                sink.add(start, c.pos, .string)
                if !quoted(&c, b, into: &sink) {
                    state.mode = body | (b == 0x27 ? Self.inSingle : Self.inDouble)
                    return
                }
            case 0x24:  // $
                if let tagEnd = Self.dollarTag(span, at: start) {
                    dollar(&c, tagEnd: tagEnd, state: &state, into: &sink)
                    if state.mode & 0xFF != 0 { return }
                } else {
                    c.pos += 1
                    sink.add(start, c.pos, .plain)
                }
            case 0x2B, 0x2D, 0x2A, 0x2F, 0x3C, 0x3E, 0x3D, 0x7E, 0x21, 0x40, 0x23, 0x25, 0x5E, 0x26, 0x7C, 0x60, 0x3F:
                c.pos += 1
                sink.add(start, c.pos, .operator)
            case 0x3B, 0x3A, 0x28, 0x29, 0x5B, 0x5D, 0x2C, 0x2E:
                c.pos += 1
                sink.add(start, c.pos, .punctuation)
            default:
                if ASCII.isDigit(b) {
                    number(&c)
                    sink.add(start, c.pos, .number)
                } else if let word = c.identifier(extra: "$") {
                    let flags = words.flags(span, word)
                    if flags & Self.keyword != 0 {
                        sink.add(word, .keyword)
                    } else if flags & Self.type != 0 {
                        sink.add(word, .builtin)
                    } else {
                        sink.add(word, .plain)
                    }
                } else {
                    c.pos += 1
                    sink.add(start, c.pos, .plain)
                }
            }
        }
    }

    /// Inside a `/* */` comment (nesting in `state.depth`): to its end or the line's.
    private func blockComment(_ c: inout LineCursor, state: inout LexState, into sink: inout TokenSink) {
        let start = c.pos
        while !c.atEnd {
            let b = c.peek()
            if b == 0x2A && c.peek(1) == 0x2F {
                c.pos += 2
                state.depth -= 1
                if state.depth == 0 {
                    state.mode &= Self.inBody
                    break
                }
            } else if b == 0x2F && c.peek(1) == 0x2A {
                c.pos += 2
                state.depth = min(state.depth + 1, 32)
            } else {
                c.pos += 1
            }
        }
        sink.add(start, c.pos, .comment)
    }

    /// The rest of a quoted literal, a doubled quote staying inside; whether it closed.
    private func quoted(_ c: inout LineCursor, _ quote: UInt8, into sink: inout TokenSink) -> Bool {
        let start = c.pos
        defer { sink.add(start, c.pos, .string) }
        while !c.atEnd {
            if c.peek() == quote {
                if c.peek(1) == quote {
                    c.pos += 2
                    continue
                }
                c.pos += 1
                return true
            }
            c.pos += 1
        }
        return false
    }

    /// A `$tag$` at the cursor (ending at `tagEnd`): a body when nothing but a comment
    /// follows on the line (and no body is open), otherwise a string literal.
    private func dollar(_ c: inout LineCursor, tagEnd: Int, state: inout LexState, into sink: inout TokenSink) {
        let start = c.pos
        let tag = UnsafeBufferPointer(rebasing: c.line[start..<tagEnd])
        c.pos = tagEnd
        let next = c.nextNonSpace(from: tagEnd)
        var k = tagEnd
        while k < c.count && ASCII.isSpace(c.line[k]) { k += 1 }
        let endsLine = next == 0 || (next == 0x2D && c[k + 1] == 0x2D)
        if endsLine && state.mode & Self.inBody == 0 {
            sink.add(start, tagEnd, .string)
            state.mode = Self.inBody
            state.terminator = Array(tag)
            return
        }
        // A string: up to the same tag, on this line or a later one.
        var i = tagEnd
        while i < c.count {
            if c.line[i] == 0x24 && Self.matches(tag, in: c.line, at: i) {
                c.pos = i + tag.count
                sink.add(start, c.pos, .string)
                return
            }
            i += 1
        }
        c.skipToEnd()
        sink.add(start, c.pos, .string)
        if state.mode & Self.inBody != 0 {
            state.terminator.append(0)
            state.terminator.append(contentsOf: tag)
        } else {
            state.terminator = Array(tag)
        }
        state.mode |= Self.inDollarString
    }

    /// Digits, then a fraction and an exponent if they follow.
    private func number(_ c: inout LineCursor) {
        while ASCII.isDigit(c.peek()) { c.pos += 1 }
        if c.peek() == 0x2E && ASCII.isDigit(c.peek(1)) {
            c.pos += 1
            while ASCII.isDigit(c.peek()) { c.pos += 1 }
        }
        if c.peek() | 0x20 == 0x65 {
            var k = 1
            if c.peek(1) == 0x2B || c.peek(1) == 0x2D { k = 2 }
            if ASCII.isDigit(c.peek(k)) {
                c.pos += k
                while ASCII.isDigit(c.peek()) { c.pos += 1 }
            }
        }
    }

    /// The end of a dollar-quote tag (`$$`, `$name$`) starting at `i`, if one does.
    private static func dollarTag(_ line: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
        // `a$b$` is one identifier, `$1` a parameter.
        if i > 0 && (ASCII.isIdentifierByte(line[i - 1]) || line[i - 1] == 0x24) { return nil }
        var k = i + 1
        if k < line.count && ASCII.isIdentifierStart(line[k]) {
            while k < line.count && ASCII.isIdentifierByte(line[k]) { k += 1 }
        }
        guard k < line.count, line[k] == 0x24, k + 1 - i <= maxTag else { return nil }
        return k + 1
    }

    /// How many bytes of `terminator` are the body's tag.
    private static func bodyTagCount(_ terminator: [UInt8]) -> Int {
        terminator.firstIndex(of: 0) ?? terminator.count
    }

    private static func matches(_ tag: UnsafeBufferPointer<UInt8>, in line: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        guard i + tag.count <= line.count else { return false }
        for k in 0..<tag.count where line[i + k] != tag[k] { return false }
        return true
    }

    /// The first position at or after `start` where `terminator[part]` occurs in `line`.
    private static func find(_ terminator: [UInt8], _ part: Range<Int>, in line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard !part.isEmpty else { return nil }
        return terminator.withUnsafeBufferPointer { t in
            let tag = UnsafeBufferPointer(rebasing: t[part])
            var i = start
            while i + tag.count <= line.count {
                if line[i] == 0x24 && matches(tag, in: line, at: i) { return i }
                i += 1
            }
            return nil
        }
    }
}
