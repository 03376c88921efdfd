/// What the panes stream when no files are given: two markdown answers, one with
/// code, one in several scripts (wide CJK, emoji, combining marks).
enum BuiltInTexts {
    static let code = """
    # Reading a file line by line

    In Swift on Linux, the simplest way is to read the whole file and **split** it:

    ```swift
    let text = try String(contentsOfFile: path, encoding: .utf8)
    for line in text.split(separator: "\\n", omittingEmptySubsequences: false) {
        print(line.count, line)
    }
    ```

    For large files, read in *chunks* instead:

    1. open the file with `open(2)`;
    2. `read` 64 KiB at a time into a buffer;
    3. cut the buffer at each newline, keeping the unfinished last line for the next chunk.

    > A line can be cut by a chunk boundary, and so can a UTF-8 character: decode
    > only complete lines.

    That keeps memory flat whatever the file's size.

    """

    static let languages = """
    # Greetings around the world

    | Language | Hello | Thanks |
    | --- | --- | --- |
    | Japanese | こんにちは | ありがとう |
    | Chinese | 你好 | 谢谢 |
    | Korean | 안녕하세요 | 감사합니다 |
    | Hindi | नमस्ते | धन्यवाद |

    Wide characters take **two columns** in a terminal: 日本語のテキストは折り返しても
    列がずれません。Emoji too 🎉👍🏽, and a family 👨‍👩‍👧 is one cluster.

    - Français : *Bonjour*, merci beaucoup !
    - Español: ¡Hola! ¿Qué tal?
    - Ελληνικά: Γειά σου κόσμε
    - Tiếng Việt: Xin chào thế giới

    Combining marks stay with their letter: e\u{301}, a\u{300}, n\u{303}.

    """
}
