/// CSS: selectors, at-rules, declarations and their values, including nesting.
///
/// Kinds follow Pygments: element names are tags, `.class` names types, pseudo-classes
/// attributes, `#id` names plain; a known property is a keyword (an unknown one plain,
/// a custom `--property` a variable); in values the CSS keywords and colour names are
/// constants, known functions builtins and others functions, a unit after a number a
/// type, `#rgb` a number, `!important` an attribute. Where Pygments gives up, this
/// lexer goes on: rules nested in a rule (`&:hover { … }`, `.child { … }`) are
/// selectors and blocks again (an item is a declaration when it starts `name:` and no
/// `{` follows on its line), the blocks of `@font-face` and `@page` hold declarations,
/// an attribute selector's name is an attribute, and a media query's
/// `(feature: value)` is lexed as a declaration (`and`, `not`, `only`, `or` keywords).
/// A value's keyword is matched whole, not by prefix (`inline-grid` is one name, not
/// `inline` and `-grid`), with a few newer keywords Pygments' lists lack.
///
/// State: `mode` is where the line starts (bits 0–3: item start, selector, at-rule
/// prelude, value; bit 4: in a comment; bits 8–11: parentheses open in a value or
/// prelude); `stack` holds what each open block contains (rules or declarations, at
/// most 32); `depth` counts blocks opened beyond that.
struct CSSLexer: LineLexer {
    private static let item: UInt16 = 0
    private static let selector: UInt16 = 1
    private static let preludeOfRules: UInt16 = 2
    private static let preludeOfDeclarations: UInt16 = 3
    private static let value: UInt16 = 4
    private static let inComment: UInt16 = 0x10
    private static let positionMask: UInt16 = 0x0F

    private static let rulesBlock: UInt16 = 1
    private static let declarationsBlock: UInt16 = 2
    private static let maxStack = 32

    // The word lists, as flags of one table.
    private static let constant: UInt32 = 1
    private static let property: UInt32 = 2
    private static let function: UInt32 = 4
    private static let unit: UInt32 = 8
    private static let vendor: UInt32 = 16
    private static let declarationAtRule: UInt32 = 32
    private static let connective: UInt32 = 64

    private static let words = WordTable([
        (property, """
        -webkit-line-clamp accent-color align-content align-items align-self alignment-baseline all animation \
        animation-delay animation-direction animation-duration animation-fill-mode animation-iteration-count \
        animation-name animation-play-state animation-timing-function appearance aspect-ratio azimuth \
        backface-visibility background background-attachment background-blend-mode background-clip \
        background-color background-image background-origin background-position background-repeat \
        background-size baseline-shift baseline-source block-ellipsis block-size block-step block-step-align \
        block-step-insert block-step-round block-step-size bookmark-label bookmark-level bookmark-state border \
        border-block border-block-color border-block-end border-block-end-color border-block-end-style \
        border-block-end-width border-block-start border-block-start-color border-block-start-style \
        border-block-start-width border-block-style border-block-width border-bottom border-bottom-color \
        border-bottom-left-radius border-bottom-right-radius border-bottom-style border-bottom-width \
        border-boundary border-collapse border-color border-end-end-radius border-end-start-radius border-image \
        border-image-outset border-image-repeat border-image-slice border-image-source border-image-width \
        border-inline border-inline-color border-inline-end border-inline-end-color border-inline-end-style \
        border-inline-end-width border-inline-start border-inline-start-color border-inline-start-style \
        border-inline-start-width border-inline-style border-inline-width border-left border-left-color \
        border-left-style border-left-width border-radius border-right border-right-color border-right-style \
        border-right-width border-spacing border-start-end-radius border-start-start-radius border-style \
        border-top border-top-color border-top-left-radius border-top-right-radius border-top-style \
        border-top-width border-width bottom box-decoration-break box-shadow box-sizing box-snap break-after \
        break-before break-inside caption-side caret caret-color caret-shape chains clear clip clip-path \
        clip-rule color color-adjust color-interpolation-filters color-scheme column-count column-fill \
        column-gap column-rule column-rule-color column-rule-style column-rule-width column-span column-width \
        columns contain contain-intrinsic-block-size contain-intrinsic-height contain-intrinsic-inline-size \
        contain-intrinsic-size contain-intrinsic-width container container-name container-type content \
        content-visibility continue counter-increment counter-reset counter-set cue cue-after cue-before \
        cursor direction display dominant-baseline elevation empty-cells fill fill-break fill-color fill-image \
        fill-opacity fill-origin fill-position fill-repeat fill-rule fill-size filter flex flex-basis \
        flex-direction flex-flow flex-grow flex-shrink flex-wrap float float-defer float-offset \
        float-reference flood-color flood-opacity flow flow-from flow-into font font-family \
        font-feature-settings font-kerning font-language-override font-optical-sizing font-palette font-size \
        font-size-adjust font-stretch font-style font-synthesis font-synthesis-small-caps font-synthesis-style \
        font-synthesis-weight font-variant font-variant-alternates font-variant-caps font-variant-east-asian \
        font-variant-emoji font-variant-ligatures font-variant-numeric font-variant-position \
        font-variation-settings font-weight footnote-display footnote-policy forced-color-adjust gap \
        glyph-orientation-vertical grid grid-area grid-auto-columns grid-auto-flow grid-auto-rows grid-column \
        grid-column-end grid-column-start grid-row grid-row-end grid-row-start grid-template \
        grid-template-areas grid-template-columns grid-template-rows hanging-punctuation height \
        hyphenate-character hyphenate-limit-chars hyphenate-limit-last hyphenate-limit-lines \
        hyphenate-limit-zone hyphens image-orientation image-rendering image-resolution initial-letter \
        initial-letter-align initial-letter-wrap inline-size inline-sizing input-security inset inset-block \
        inset-block-end inset-block-start inset-inline inset-inline-end inset-inline-start isolation \
        justify-content justify-items justify-self leading-trim left letter-spacing lighting-color line-break \
        line-clamp line-grid line-height line-height-step line-padding line-snap list-style list-style-image \
        list-style-position list-style-type margin margin-block margin-block-end margin-block-start \
        margin-bottom margin-break margin-inline margin-inline-end margin-inline-start margin-left \
        margin-right margin-top margin-trim marker marker-end marker-knockout-left marker-knockout-right \
        marker-mid marker-pattern marker-segment marker-side marker-start mask mask-border mask-border-mode \
        mask-border-outset mask-border-repeat mask-border-slice mask-border-source mask-border-width mask-clip \
        mask-composite mask-image mask-mode mask-origin mask-position mask-repeat mask-size mask-type \
        max-block-size max-height max-inline-size max-lines max-width min-block-size min-height \
        min-inline-size min-intrinsic-sizing min-width mix-blend-mode nav-down nav-left nav-right nav-up \
        object-fit object-overflow object-position object-view-box offset offset-anchor offset-distance \
        offset-path offset-position offset-rotate opacity order orphans outline outline-color outline-offset \
        outline-style outline-width overflow overflow-anchor overflow-block overflow-clip-margin \
        overflow-inline overflow-wrap overflow-x overflow-y overscroll-behavior overscroll-behavior-block \
        overscroll-behavior-inline overscroll-behavior-x overscroll-behavior-y padding padding-block \
        padding-block-end padding-block-start padding-bottom padding-inline padding-inline-end \
        padding-inline-start padding-left padding-right padding-top page page-break-after page-break-before \
        page-break-inside pause pause-after pause-before perspective perspective-origin pitch pitch-range \
        place-content place-items place-self play-during pointer-events position print-color-adjust \
        property-name quotes region-fragment resize rest rest-after rest-before richness right rotate row-gap \
        ruby-align ruby-merge ruby-overhang ruby-position running scale scroll-behavior scroll-margin \
        scroll-margin-block scroll-margin-block-end scroll-margin-block-start scroll-margin-bottom \
        scroll-margin-inline scroll-margin-inline-end scroll-margin-inline-start scroll-margin-left \
        scroll-margin-right scroll-margin-top scroll-padding scroll-padding-block scroll-padding-block-end \
        scroll-padding-block-start scroll-padding-bottom scroll-padding-inline scroll-padding-inline-end \
        scroll-padding-inline-start scroll-padding-left scroll-padding-right scroll-padding-top \
        scroll-snap-align scroll-snap-stop scroll-snap-type scrollbar-color scrollbar-gutter scrollbar-width \
        shape-image-threshold shape-inside shape-margin shape-outside spatial-navigation-action \
        spatial-navigation-contain spatial-navigation-function speak speak-as speak-header speak-numeral \
        speak-punctuation speech-rate stress string-set stroke stroke-align stroke-alignment stroke-break \
        stroke-color stroke-dash-corner stroke-dash-justify stroke-dashadjust stroke-dasharray \
        stroke-dashcorner stroke-dashoffset stroke-image stroke-linecap stroke-linejoin stroke-miterlimit \
        stroke-opacity stroke-origin stroke-position stroke-repeat stroke-size stroke-width tab-size \
        table-layout text-align text-align-all text-align-last text-combine-upright text-decoration \
        text-decoration-color text-decoration-line text-decoration-skip text-decoration-skip-box \
        text-decoration-skip-ink text-decoration-skip-inset text-decoration-skip-self \
        text-decoration-skip-spaces text-decoration-style text-decoration-thickness text-edge text-emphasis \
        text-emphasis-color text-emphasis-position text-emphasis-skip text-emphasis-style text-group-align \
        text-indent text-justify text-orientation text-overflow text-shadow text-space-collapse \
        text-space-trim text-spacing text-transform text-underline-offset text-underline-position text-wrap \
        top transform transform-box transform-origin transform-style transition transition-delay \
        transition-duration transition-property transition-timing-function translate unicode-bidi \
        user-select vertical-align visibility voice-balance voice-duration voice-family voice-pitch \
        voice-range voice-rate voice-stress voice-volume volume white-space widows width will-change \
        word-boundary-detection word-boundary-expansion word-break word-spacing word-wrap wrap-after \
        wrap-before wrap-flow wrap-inside wrap-through writing-mode z-index
        """),
        // Keyword values, the other (older) keyword values and colour names: constants.
        (constant, """
        absolute alias all all-petite-caps all-scroll all-small-caps allow-end alpha alternate \
        alternate-reverse always armenian auto avoid avoid-column avoid-page backwards balance baseline below \
        blink block bold bolder border-box both bottom box-decoration break-word capitalize cell center circle \
        clip clone close-quote col-resize collapse color color-burn color-dodge column column-reverse compact \
        condensed contain container content-box context-menu copy cover crisp-edges crosshair currentColor \
        cursive darken dashed decimal decimal-leading-zero default descendants difference digits disc \
        distribute dot dotted double double-circle e-resize each-line ease ease-in ease-in-out ease-out edges \
        ellipsis end ew-resize exclusion expanded extra-condensed extra-expanded fantasy fill fill-box filled \
        first fixed flat flex flex-end flex-start flip force-end forwards from-image full-width \
        geometricPrecision georgian groove hanging hard-light help hidden hide horizontal hue icon infinite \
        inherit initial ink inline inline-block inline-flex inline-table inset inside inter-word invert \
        isolate italic justify large larger last left lighten lighter line-through linear list-item local \
        loose lower-alpha lower-greek lower-latin lower-roman lowercase ltr luminance luminosity mandatory \
        manipulation manual margin-box match-parent medium mixed monospace move multiply n-resize ne-resize \
        nesw-resize no-close-quote no-drop no-open-quote no-repeat none normal not-allowed nowrap ns-resize \
        nw-resize nwse-resize objects oblique off on open open-quote optimizeLegibility optimizeSpeed outset \
        outside over overlay overline padding-box page pan-down pan-left pan-right pan-up pan-x pan-y paused \
        petite-caps pixelated pointer preserve-3d progress proximity relative repeat repeat-x repeat-y \
        reverse revert ridge right round row row-resize row-reverse rtl ruby ruby-base ruby-base-container \
        ruby-text ruby-text-container run-in running s-resize sans-serif saturation scale-down screen scroll \
        se-resize semi-condensed semi-expanded separate serif sesame show sideways sideways-left \
        sideways-right slice small small-caps smaller smooth snap soft-light solid space space-around \
        space-between spaces square start static step-end step-start sticky stretch strict stroke-box style \
        sw-resize table table-caption table-cell table-column table-column-group table-footer-group \
        table-header-group table-row table-row-group text thick thin titling-caps to top triangle \
        ultra-condensed ultra-expanded under underline unicase unset upper-alpha upper-latin upper-roman \
        uppercase upright use-glyph-orientation vertical vertical-text view-box visible w-resize wait wavy \
        weight wrap wrap-reverse x-large x-small xx-large xx-small zoom-in zoom-out
        """),
        // Newer keyword values Pygments' lists lack (a value is matched whole here, so
        // `inline-grid` is not `inline` and `-grid`).
        (constant, """
        grid inline-grid subgrid auto-fill auto-fit dense min-content max-content fit-content space-evenly \
        system-ui ui-monospace ui-sans-serif ui-serif ui-rounded emoji math contents flow-root \
        anywhere balance pretty stable
        """),
        (constant, """
        above aural behind bidi-override center-left center-right cjk-ideographic continuous crop cross embed \
        far-left far-right fast faster hebrew high higher hiragana hiragana-iroha katakana katakana-iroha \
        landscape left-side leftwards level loud low lower message-box middle mix narrower once portrait \
        right-side rightwards silent slow slower small-caption soft spell-out status-bar super text-bottom \
        text-top wider x-fast x-high x-loud x-low x-soft yes pre pre-wrap pre-line
        """),
        (constant, """
        aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown \
        burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan \
        darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid \
        darkred darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet \
        deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro \
        ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki \
        lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow \
        lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray \
        lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine \
        mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen \
        mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace \
        olive olivedrab orange orangered orchid palegoldenrod palegreen paleturquoise palevioletred \
        papayawhip peachpuff peru pink plum powderblue purple rebeccapurple red rosybrown royalblue \
        saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue slategray slategrey \
        snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow \
        yellowgreen transparent
        """),
        // Functions that are builtins (the others are functions).
        (function, """
        attr blackness blend blenda blur brightness calc circle color-mod contrast counter cubic-bezier \
        device-cmyk drop-shadow ellipse gray grayscale hsl hsla hue hue-rotate hwb image inset invert \
        lightness linear-gradient matrix matrix3d opacity perspective polygon radial-gradient rect \
        repeating-linear-gradient repeating-radial-gradient rgb rgba rotate rotate3d rotateX rotateY rotateZ \
        saturate saturation scale scale3d scaleX scaleY scaleZ sepia shade skewX skewY steps tint toggle \
        translate translate3d translateX translateY translateZ whiteness
        """),
        (unit, "deg grad rad turn Hz kHz em ex ch rem vh vw vmin vmax px mm cm in pt pc q dpi dpcm dppx s ms"),
        (vendor, "-ms- mso- -moz- -o- -xv- -atsc- -wap- -khtml- -webkit- prince- -ah- -hp- -ro- -rim- -tc-"),
        // At-rules whose block holds declarations rather than rules.
        (declarationAtRule, """
        font-face page property counter-style font-palette-values viewport position-try \
        styleset stylistic character-variant swash ornaments annotation
        """),
        (connective, "and not only or"),
    ])

    func lex(_ line: UnsafeBufferPointer<UInt8>, state: inout LexState, into sink: inout TokenSink) {
        var c = LineCursor(line)
        // Within one line: the `[` of an attribute selector was just opened.
        var afterBracket = false
        while !c.atEnd {
            if state.mode & Self.inComment != 0 {
                let start = c.pos
                if c.skip(past: "*/") { state.mode &= ~Self.inComment }
                sink.add(start, c.pos, .comment)
                continue
            }
            if c.skipSpaces() { continue }
            let start = c.pos
            if c.peek() == 0x2F && c.peek(1) == 0x2A {
                c.pos += 2
                if !c.skip(past: "*/") { state.mode |= Self.inComment }
                sink.add(start, c.pos, .comment)
                continue
            }
            switch state.mode & Self.positionMask {
            case Self.item:
                itemStart(&c, &state, &sink)
            case Self.value:
                valueToken(&c, &state, &sink)
            case Self.preludeOfRules, Self.preludeOfDeclarations:
                if parens(state) > 0 {
                    valueToken(&c, &state, &sink)
                } else {
                    selectorToken(&c, &state, &sink, afterBracket: &afterBracket)
                }
            default:
                selectorToken(&c, &state, &sink, afterBracket: &afterBracket)
            }
        }
    }

    // MARK: Blocks

    @inline(__always) private func parens(_ state: LexState) -> UInt16 { (state.mode >> 8) & 0xF }

    @inline(__always) private func setParens(_ state: inout LexState, _ n: UInt16) {
        state.mode = state.mode & 0x00FF | (min(n, 15) << 8)
    }

    @inline(__always) private func setPosition(_ state: inout LexState, _ position: UInt16) {
        state.mode = state.mode & Self.inComment | position
    }

    private func currentBlock(_ state: LexState) -> UInt16 { state.stack.last ?? Self.rulesBlock }

    private func open(_ kind: UInt16, _ state: inout LexState) {
        if state.stack.count < Self.maxStack {
            state.stack.append(kind)
        } else if state.depth < UInt16.max {
            state.depth += 1
        }
        setPosition(&state, Self.item)
    }

    private func close(_ state: inout LexState) {
        if state.depth > 0 {
            state.depth -= 1
        } else if !state.stack.isEmpty {
            state.stack.removeLast()
        }
        setPosition(&state, Self.item)
    }

    /// Reports `{` or `}` and moves to the next item, if the byte is one.
    private func structural(_ c: inout LineCursor, _ state: inout LexState, _ sink: inout TokenSink, blockKind: UInt16) -> Bool {
        let start = c.pos
        switch c.peek() {
        case 0x7B:
            c.pos += 1
            sink.add(start, c.pos, .punctuation)
            open(blockKind, &state)
            return true
        case 0x7D:
            c.pos += 1
            sink.add(start, c.pos, .punctuation)
            close(&state)
            return true
        default:
            return false
        }
    }

    // MARK: Items

    /// The start of a rule, at-rule or declaration.
    private func itemStart(_ c: inout LineCursor, _ state: inout LexState, _ sink: inout TokenSink) {
        let line = c.line
        let start = c.pos
        let b = c.peek()
        let block = currentBlock(state)
        if b == 0x7D || b == 0x3B {  // } or a stray ;
            c.pos += 1
            sink.add(start, c.pos, .punctuation)
            if b == 0x7D { close(&state) }
            return
        }
        if b == 0x40 && isNameStart(c.peek(1)) {  // @rule
            c.pos += 1
            sink.add(start, c.pos, .punctuation)
            let name = c.pos
            while c.pos < c.count && isNameByte(line[c.pos]) { c.pos += 1 }
            sink.add(name, c.pos, .keyword)
            let holdsDeclarations = block == Self.declarationsBlock || Self.has(Self.declarationAtRule, line, name..<c.pos)
            setPosition(&state, holdsDeclarations ? Self.preludeOfDeclarations : Self.preludeOfRules)
            setParens(&state, 0)
            return
        }
        if block == Self.declarationsBlock && isDeclaration(c) {
            property(&c, &state, &sink)
            return
        }
        setPosition(&state, Self.selector)
    }

    /// Whether the item at the cursor, in a block of declarations, is a declaration
    /// rather than a nested rule: it starts with a name and a colon, and no `{` comes
    /// before the end of the line or a `;`.
    private func isDeclaration(_ c: LineCursor) -> Bool {
        let line = c.line
        var i = c.pos
        guard isNameStart(line[i]) || line[i] == 0x2D else { return false }
        while i < line.count && isNameByte(line[i]) { i += 1 }
        while i < line.count && ASCII.isSpace(line[i]) { i += 1 }
        if i < line.count && line[i] != 0x3A { return false }
        // A pseudo-class follows its colon at once; a space means a value.
        if i + 1 >= line.count || ASCII.isSpace(line[i + 1]) { return true }
        while i < line.count {
            let b = line[i]
            if b == 0x7B { return false }
            if b == 0x3B || b == 0x7D { return true }
            if b == 0x22 || b == 0x27 {
                i += 1
                while i < line.count && line[i] != b { i += 1 }
            }
            i += 1
        }
        return true
    }

    /// A declaration's property and its colon; the value follows.
    private func property(_ c: inout LineCursor, _ state: inout LexState, _ sink: inout TokenSink) {
        let line = c.line
        let start = c.pos
        if let prefix = vendorPrefix(c) {
            c.pos = prefix
            sink.add(start, c.pos, .keyword)
        }
        let name = c.pos
        while c.pos < c.count && isNameByte(line[c.pos]) { c.pos += 1 }
        let kind: TokenKind
        if line[start] == 0x2D && name == start {
            kind = .variable
        } else {
            kind = Self.has(Self.property, line, name..<c.pos) ? .keyword : .plain
        }
        sink.add(name, c.pos, kind)
        c.skipSpaces()
        if c.peek() == 0x3A {
            sink.add(c.pos, c.pos + 1, .punctuation)
            c.pos += 1
        }
        setPosition(&state, Self.value)
        setParens(&state, 0)
    }

    /// The end of a vendor prefix (`-webkit-`, `mso-`) at the cursor, if one is there.
    private func vendorPrefix(_ c: LineCursor) -> Int? {
        var i = c.pos
        let first = c[i]
        guard first == 0x2D || first == 0x6D || first == 0x70 else { return nil }  // - m p
        if first == 0x2D { i += 1 }
        let letters = i
        while i < c.count && ASCII.isLetter(c[i]) { i += 1 }
        // Without a dash only `mso-` and `prince-` are prefixes (not `margin-`, `padding-`).
        guard i > letters, c[i] == 0x2D, first == 0x2D || i - letters == (first == 0x6D ? 3 : 6) else { return nil }
        return Self.has(Self.vendor, c.line, c.pos..<(i + 1)) ? i + 1 : nil
    }

    // MARK: Selectors and preludes

    private func selectorToken(_ c: inout LineCursor, _ state: inout LexState, _ sink: inout TokenSink, afterBracket: inout Bool) {
        let line = c.line
        let start = c.pos
        let b = c.peek()
        let position = state.mode & Self.positionMask
        let wasAfterBracket = afterBracket
        afterBracket = false
        let blockKind = position == Self.preludeOfDeclarations || position == Self.selector ? Self.declarationsBlock : Self.rulesBlock
        if structural(&c, &state, &sink, blockKind: blockKind) { return }
        switch b {
        case 0x2E where isNameByte(c.peek(1)) || c.peek(1) == 0x2D:  // .class
            c.pos += 1
            sink.add(start, c.pos, .punctuation)
            sink.add(c.pos, name(&c), .type)
        case 0x23 where isNameByte(c.peek(1)) || c.peek(1) == 0x2D:  // #id
            c.pos += 1
            sink.add(start, c.pos, .punctuation)
            sink.add(c.pos, name(&c), .plain)
        case 0x3A where isNameByte(c.peek(1)) || c.peek(1) == 0x2D || (c.peek(1) == 0x3A && isNameByte(c.peek(2))):  // :hover ::before
            c.pos += c.peek(1) == 0x3A ? 2 : 1
            sink.add(start, c.pos, .punctuation)
            sink.add(c.pos, name(&c), .attribute)
        case 0x22, 0x27:
            string(&c, b)
            sink.add(start, c.pos, .string)
        case 0x3B:  // the end of a statement at-rule; no selector goes on past it
            c.pos += 1
            sink.add(start, c.pos, position == Self.selector ? .operator : .punctuation)
            setPosition(&state, Self.item)
        case 0x28 where position != Self.selector:  // a media feature
            c.pos += 1
            sink.add(start, c.pos, .operator)
            setParens(&state, 1)
            mediaFeature(&c, &state, &sink)
        default:
            if isNameByte(b) || (b == 0x2D && (isNameByte(c.peek(1)) || c.peek(1) == 0x2D)) {
                let end = name(&c)
                if position != Self.selector {
                    if end - start == 3 && c.at("url", start) && c.peek() == 0x28 {
                        c.pos = start
                        url(&c, &sink)
                        return
                    }
                    if Self.has(Self.connective, line, start..<end) {
                        sink.add(start, end, .keyword)
                        return
                    }
                }
                sink.add(start, end, wasAfterBracket ? .attribute : .tag)
            } else {
                c.pos += 1
                while c.pos < c.count && line[c.pos] & 0xC0 == 0x80 { c.pos += 1 }
                sink.add(start, c.pos, b < 0x80 ? .operator : .plain)
                afterBracket = b == 0x5B
            }
        }
    }

    /// After a media query's `(`: `feature:` as a property; the value follows.
    private func mediaFeature(_ c: inout LineCursor, _ state: inout LexState, _ sink: inout TokenSink) {
        let line = c.line
        c.skipSpaces()
        let start = c.pos
        guard isNameStart(c.peek()) || c.peek() == 0x2D else { return }
        var i = start
        while i < line.count && isNameByte(line[i]) { i += 1 }
        guard c.nextNonSpace(from: i) == 0x3A else { return }
        c.pos = i
        sink.add(start, i, Self.has(Self.property, line, start..<i) ? .keyword : .plain)
        c.skipSpaces()
        sink.add(c.pos, c.pos + 1, .operator)
        c.pos += 1
    }

    /// A name: letters, digits, `-`, `_`, non-ASCII.
    private func name(_ c: inout LineCursor) -> Int {
        while c.pos < c.count && isNameByte(c.line[c.pos]) { c.pos += 1 }
        return c.pos
    }

    // MARK: Values

    private func valueToken(_ c: inout LineCursor, _ state: inout LexState, _ sink: inout TokenSink) {
        let line = c.line
        let start = c.pos
        let b = c.peek()
        let depth = parens(state)
        let inPrelude = state.mode & Self.positionMask != Self.value
        // A function's arguments, where Pygments lexes names and `-` a little apart;
        // a media query's parentheses are lexed as a value.
        let inFunction = depth > 0 && !inPrelude
        // In a prelude, parentheses are operators, as everything in a selector.
        let parenthesis: TokenKind = inPrelude ? .operator : .punctuation
        // Names first: they are most tokens (`mso-` and `prince-` are vendor prefixes).
        if ASCII.isLetter(b) || b == 0x5F || b >= 0x80, !((b == 0x6D || b == 0x70) && vendorPrefix(c) != nil) {
            valueName(&c, &state, &sink, inFunction: inFunction, inPrelude: inPrelude)
            return
        }
        switch b {
        case 0x3B:  // ;
            c.pos += 1
            sink.add(start, c.pos, .punctuation)
            if !inPrelude {
                setPosition(&state, Self.item)
                setParens(&state, 0)
            }
            return
        case 0x7B, 0x7D:
            setParens(&state, 0)
            _ = structural(&c, &state, &sink, blockKind: Self.declarationsBlock)
            return
        case 0x28:
            c.pos += 1
            sink.add(start, c.pos, parenthesis)
            setParens(&state, depth + 1)
            if inPrelude { mediaFeature(&c, &state, &sink) }
            return
        case 0x29:
            c.pos += 1
            sink.add(start, c.pos, parenthesis)
            if depth > 0 { setParens(&state, depth - 1) }
            return
        case 0x22, 0x27:
            string(&c, b)
            sink.add(start, c.pos, .string)
            return
        case 0x21:  // !important
            var i = c.pos + 1
            while i < c.count && ASCII.isSpace(line[i]) { i += 1 }
            if c.at("important", i) {
                c.pos = i + 9
                sink.add(start, c.pos, .attribute)
                return
            }
        case 0x23:  // #rgb
            var i = c.pos + 1
            while i < c.count && i - c.pos <= 6 && (ASCII.isLetter(line[i]) || ASCII.isDigit(line[i])) { i += 1 }
            if i > c.pos + 1 {
                c.pos = i
                sink.add(start, c.pos, .number)
                return
            }
        default:
            break
        }
        if number(&c) {
            sink.add(start, c.pos, .number)
            let unit = c.pos
            while c.pos < c.count && isWordByte(line[c.pos]) { c.pos += 1 }
            if c.pos > unit && Self.has(Self.unit, line, unit..<c.pos) {
                sink.add(unit, c.pos, .type)
            } else if c.pos == unit && c.peek() == 0x25 {
                c.pos += 1
                sink.add(unit, c.pos, .type)
            } else {
                c.pos = unit
            }
            return
        }
        if inFunction && b == 0x2D && variable(&c) {
            sink.add(start, c.pos, .variable)
            return
        }
        if let prefix = vendorPrefix(c) {
            c.pos = prefix
            sink.add(start, c.pos, .keyword)
            return
        }
        c.pos += 1
        if b == 0x2C || b == 0x5B || b == 0x5D {
            sink.add(start, c.pos, .punctuation)
        } else if b < 0x80 && !ASCII.isSpace(b) && b > 0x20 {
            if !inFunction {
                while c.pos < c.count && Self.isOperator(line[c.pos]) && line[c.pos] != 0x21 { c.pos += 1 }
            }
            sink.add(start, c.pos, Self.isOperator(b) ? .operator : .plain)
        } else {
            while c.pos < c.count && line[c.pos] & 0xC0 == 0x80 { c.pos += 1 }
            sink.add(start, c.pos, .plain)
        }
    }

    /// A name in a value: `url(…)`, a function, a keyword value, a property, or plain.
    private func valueName(_ c: inout LineCursor, _ state: inout LexState, _ sink: inout TokenSink, inFunction: Bool, inPrelude: Bool) {
        let line = c.line
        let start = c.pos
        let depth = parens(state)
        var end = c.pos
        while end < c.count && isNameByte(line[end]) { end += 1 }
        if c.at("url(", start) {
            url(&c, &sink)
            return
        }
        if end < c.count && line[end] == 0x28 && end - start >= 2 {
            c.pos = end + 1
            sink.add(start, end, Self.has(Self.function, line, start..<end) ? .builtin : .function)
            sink.add(end, end + 1, .punctuation)
            setParens(&state, depth + 1)
            return
        }
        // A keyword value is matched whole (Pygments matches a prefix: `inline` of
        // `inline-grid`); a property names one in `transition: opacity 1s`.
        let flags = Self.words.flags(line, start..<end)
        c.pos = end
        if inPrelude && flags & Self.connective != 0 {
            sink.add(start, end, .keyword)
        } else if flags & Self.constant != 0 {
            sink.add(start, end, .constant)
        } else if flags & Self.property != 0 && !inFunction {
            sink.add(start, end, .keyword)
        } else {
            sink.add(start, end, .plain)
        }
    }

    private static func isOperator(_ b: UInt8) -> Bool {
        switch b {
        case 0x7E, 0x5E, 0x2A, 0x21, 0x25, 0x26, 0x3C, 0x3E, 0x7C, 0x2B, 0x3D, 0x40, 0x3A, 0x2E, 0x2F, 0x3F, 0x2D: true
        default: false
        }
    }

    /// `url(…)`: the name, its parenthesis, the address as a string up to `)`.
    private func url(_ c: inout LineCursor, _ sink: inout TokenSink) {
        let start = c.pos
        sink.add(start, start + 3, .builtin)
        sink.add(start + 3, start + 4, .punctuation)
        c.pos = start + 4
        let body = c.pos
        while c.pos < c.count && c.line[c.pos] != 0x29 { c.pos += 1 }
        sink.add(body, c.pos, .string)
        if c.pos < c.count {
            sink.add(c.pos, c.pos + 1, .punctuation)
            c.pos += 1
        }
    }

    /// Moves past a quoted string (its escapes are part of it, as in Pygments), to the
    /// line's end if it does not close.
    private func string(_ c: inout LineCursor, _ quote: UInt8) {
        c.pos += 1
        while c.pos < c.count {
            let b = c.line[c.pos]
            c.pos += b == 0x5C ? 2 : 1
            if b == quote { break }
        }
        c.pos = min(c.pos, c.count)
    }

    /// A `--name` or `-name` inside a function (`var(--gap)`).
    private func variable(_ c: inout LineCursor) -> Bool {
        var i = c.pos
        while i < c.count && c[i] == 0x2D { i += 1 }
        guard ASCII.isLetter(c[i]) else { return false }
        while i < c.count && (isWordByte(c[i]) || c[i] == 0x2D || c[i] == 0x2B) { i += 1 }
        c.pos = i
        return true
    }

    /// Moves past a number with an optional sign: `12`, `-0.5`, `.75`.
    private func number(_ c: inout LineCursor) -> Bool {
        var i = c.pos
        if c[i] == 0x2B || c[i] == 0x2D { i += 1 }
        let digits = i
        while ASCII.isDigit(c[i]) { i += 1 }
        if c[i] == 0x2E && ASCII.isDigit(c[i + 1]) {
            i += 1
            while ASCII.isDigit(c[i]) { i += 1 }
        }
        guard i > digits else { return false }
        c.pos = i
        return true
    }

    @inline(__always)
    private static func has(_ flag: UInt32, _ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        words.flags(line, range) & flag != 0
    }

    @inline(__always) private func isNameStart(_ b: UInt8) -> Bool { ASCII.isIdentifierStart(b) }
    /// A letter, digit, `_`, `-` or non-ASCII byte (ASCII as a 128-bit mask: names are most of CSS).
    @inline(__always) private func isNameByte(_ b: UInt8) -> Bool {
        b >= 0x80 || (b < 0x40 ? (0x03FF_2000_0000_0000 as UInt64) &>> UInt64(b) : (0x07FF_FFFE_87FF_FFFE as UInt64) &>> UInt64(b & 63)) & 1 != 0
    }
    /// A letter, digit, `_` or non-ASCII byte: what Pygments' `\w` matches.
    @inline(__always) private func isWordByte(_ b: UInt8) -> Bool {
        b >= 0x80 || (b < 0x40 ? (0x03FF_0000_0000_0000 as UInt64) &>> UInt64(b) : (0x07FF_FFFE_87FF_FFFE as UInt64) &>> UInt64(b & 63)) & 1 != 0
    }
}
