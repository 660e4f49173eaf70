// A CodeMirror 5 mode for Kaleidoscope: keywords, numbers, strings with escapes, comments
// from '#' to the end of the line, identifiers, and operator characters (user-defined
// operators included). The keyword list is checked against the compiler's by a test.
(function () {
  "use strict";
  var keywords = ["def", "extern", "if", "then", "else", "for", "while", "in", "var", "binary", "unary", "len"];
  var isKeyword = {};
  keywords.forEach(function (word) { isKeyword[word] = true; });

  CodeMirror.defineMode("kaleidoscope", function () {
    return {
      token: function (stream, state) {
        if (stream.eatSpace()) return null;
        var ch = stream.peek();
        if (ch === "#") { stream.skipToEnd(); return "comment"; }
        if (ch === '"') {
          stream.next();
          var escaped = false, next;
          while ((next = stream.next()) != null) {
            if (next === '"' && !escaped) return "string";
            escaped = !escaped && next === "\\";
          }
          return "string";
        }
        if (/[0-9.]/.test(ch) && stream.match(/^(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/)) return "number";
        if (stream.match(/^[A-Za-z_][A-Za-z0-9_]*/)) {
          var word = stream.current();
          if (isKeyword[word]) {
            state.afterDefiner = word === "def" || word === "extern" || word === "binary" || word === "unary";
            return "keyword";
          }
          var wasDefiner = state.afterDefiner;
          state.afterDefiner = false;
          return wasDefiner ? "def" : "variable";
        }
        stream.next();
        state.afterDefiner = false;
        if (/[()\[\],;]/.test(ch)) return "bracket";
        return "operator";
      },
      startState: function () { return { afterDefiner: false }; },
      lineComment: "#"
    };
  });
  CodeMirror.defineMIME("text/x-kaleidoscope", "kaleidoscope");
  window.KaleidoscopeKeywords = keywords;
})();
