// Colours that tie each source line to what it became (SPEC §7): every line of the program
// has a colour, shown beside it in the editor and beside the tokens, tree nodes, IR lines
// and assembly lines it produced; hovering any of them, or moving the cursor to the line,
// lights up all of them in every pane. Elements carry their line in `data-source-line`;
// an index by line keeps a hover to the few elements it changes.
(function () {
  "use strict";
  var byLine = {};   // line → the elements, in every pane, that came from it
  var current = 0;   // the line lit now
  var editor = null, editorMark = null;

  // Well-spread hues by the golden angle, so that neighbouring lines differ.
  function colour(line) { return "hsl(" + Math.round((line * 137.508) % 360) + ", 65%, 45%)"; }

  // Indexes and colours the elements under `container`, replacing what it held before.
  function register(container) {
    Object.keys(byLine).forEach(function (line) {
      byLine[line] = byLine[line].filter(function (element) { return !container.contains(element); });
    });
    container.querySelectorAll("[data-source-line]").forEach(function (element) {
      var line = element.getAttribute("data-source-line");
      (byLine[line] = byLine[line] || []).push(element);
      element.style.setProperty("--source-colour", colour(Number(line)));
      element.classList.add("sourced");
      element.classList.toggle("linked", line === String(current));
    });
  }

  // Lights up everything that came from `line` (0: nothing), and the line itself.
  function highlight(line) {
    if (line === current) return;
    (byLine[current] || []).forEach(function (element) { element.classList.remove("linked"); });
    if (editorMark !== null) editor.removeLineClass(editorMark, "background", "source-linked");
    editorMark = null;
    current = line;
    (byLine[line] || []).forEach(function (element) { element.classList.add("linked"); });
    if (editor && line > 0 && line <= editor.lineCount()) {
      editorMark = editor.addLineClass(line - 1, "background", "source-linked");
    }
  }

  // The editor: a gutter of line colours, kept as the text changes, and the cursor's line lit.
  function attach(codeMirror) {
    editor = codeMirror;
    function paint() {
      editor.clearGutter("source-colours");
      for (var line = 0; line < editor.lineCount(); line++) {
        if (!editor.getLine(line).trim()) continue;
        var marker = document.createElement("div");
        marker.className = "source-colour";
        marker.style.background = marker.dataset.colour = colour(line + 1);
        editor.setGutterMarker(line, "source-colours", marker);
      }
    }
    editor.on("changes", paint);
    paint();
    editor.on("cursorActivity", function () { highlight(editor.getCursor().line + 1); });
    editor.getWrapperElement().addEventListener("mousemove", function (event) {
      highlight(editor.coordsChar({ left: event.clientX, top: event.clientY }, "window").line + 1);
    });
  }

  document.getElementById("views").addEventListener("mouseover", function (event) {
    var target = event.target.closest ? event.target.closest("[data-source-line]") : null;
    if (target) highlight(Number(target.getAttribute("data-source-line")));
  });

  window.SourceLinks = { register: register, highlight: highlight, attach: attach, colour: colour };
})();
