// The playground page: the editor, the Run and Share buttons, and the panes, each filled
// from the server's JSON API (SPEC §6). Everything is served by `kaleidoscope serve`.
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var DEFAULT_SOURCE = "# Type a program and press Run (Ctrl-Enter).\n" +
    "def fib(x)\n  if x < 3 then\n    1\n  else\n    fib(x - 1) + fib(x - 2);\n\nfib(10);\n";

  var editor = CodeMirror.fromTextArea($("source"), {
    mode: "kaleidoscope", lineNumbers: true, indentUnit: 2, gutters: ["source-colours", "CodeMirror-lint-markers"],
    lint: { getAnnotations: lint, async: true, delay: 400 },
    // Tab leaves the editor, so the page has no keyboard trap; indent with spaces.
    extraKeys: {
      "Tab": false, "Shift-Tab": false,
      "Ctrl-Enter": function () { run(); }, "Cmd-Enter": function () { run(); }
    },
    screenReaderLabel: "Program"
  });
  var views = {};   // the last answer of each pane, with the source it was for
  var latest = {};  // the number of each pane's latest request: older answers are dropped
  var activeTab = "output";

  function post(path, body) {
    return fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then(function (response) {
        return response.json().catch(function () { return {}; }).then(function (json) {
          if (!response.ok) throw new Error(json.error || ("the server answered " + response.status));
          return json;
        });
      });
  }

  function status(text) { $("status").textContent = text; }

  // The diagnostics' columns count bytes; CodeMirror's count UTF-16 units.
  function position(line, byteColumn) {
    var text = editor.getLine(line - 1) || "", bytes = 0, index = 0;
    while (index < text.length && bytes < byteColumn - 1) {
      var code = text.codePointAt(index);
      bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
      index += code >= 0x10000 ? 2 : 1;
    }
    return CodeMirror.Pos(line - 1, index);
  }

  // Inline diagnostics as the user types, from the cheapest view.
  function lint(text, update) {
    post("/api/view", { source: text, view: "ast" }).then(function (answer) {
      update(editor, answer.diagnostics.map(function (d) {
        var from = position(d.line, d.column), to = position(d.endLine, d.endColumn);
        if (CodeMirror.cmpPos(from, to) >= 0) to = CodeMirror.Pos(from.line, from.ch + 1);
        return { from: from, to: to, severity: d.severity === "note" ? "warning" : d.severity, message: d.message };
      }));
    }, function (error) { status(error.message); update(editor, []); });
  }

  function renderDiagnostics(diagnostics, into) {
    diagnostics.forEach(function (d) {
      var span = document.createElement("span");
      span.className = "diagnostic-" + d.severity;
      span.textContent = "main.ks:" + d.line + ":" + d.column + ": " + d.severity + ": " + d.message + "\n";
      into.appendChild(span);
    });
  }

  function run() {
    selectTab("output");
    status("Running…");
    $("run").disabled = true;
    post("/api/run", {
      source: editor.getValue(), stdin: $("stdin").value, opt: Number($("run-opt").value), engine: $("engine").value
    }).then(function (answer) {
      var output = $("output");
      output.textContent = answer.stdout;
      if (answer.stderr) {
        var stderr = document.createElement("span");
        stderr.className = "stderr";
        stderr.textContent = answer.stderr;
        output.appendChild(stderr);
      }
      renderDiagnostics(answer.diagnostics, output);
      var notes = [];
      if (answer.timedOut) notes.push("stopped: the program ran out of time");
      if (answer.truncated) notes.push("stopped: the output passed 64 KiB");
      notes.forEach(function (text) {
        var note = document.createElement("span");
        note.className = "note";
        note.textContent = text + "\n";
        output.appendChild(note);
      });
      status("exit status " + answer.exitCode + " · " + answer.timeMs + " ms");
    }, function (error) { status(error.message); }).then(function () { $("run").disabled = false; });
  }

  function share() {
    status("Sharing…");
    post("/api/share", { source: editor.getValue() }).then(function (answer) {
      history.pushState(null, "", answer.url);
      status("Shared: " + location.origin + answer.url);
    }, function (error) { status(error.message); });
  }

  // The request a pane needs, as a key that tells when it must be asked again.
  function viewRequest(tab) {
    var source = editor.getValue();
    switch (tab) {
      case "tokens": return { source: source, view: "tokens" };
      case "tree": return { source: source, view: "ast" };
      case "ir": return { source: source, view: "ir", opt: Number($("ir-opt").value), diff: $("ir-diff").checked };
      case "asm":
        return {
          source: source, view: "asm", opt: Number($("asm-opt").value), target: $("asm-target").value,
          filters: { directives: !$("asm-directives").checked, labels: !$("asm-labels").checked, comments: !$("asm-comments").checked }
        };
      case "passes": return { source: source, view: "passes", opt: Number($("passes-opt").value) };
      case "step": return { source: source, stdin: $("stdin").value };
      case "cfg":
        var code = $("cfg-code").value, request = { source: source, view: "cfg", opt: Number($("cfg-opt").value) };
        if (code !== "ir") { request.asm = true; request.target = code; }
        if ($("cfg-function").value) request.function = $("cfg-function").value;
        return request;
    }
    return null;
  }

  function refresh(tab) {
    var request = viewRequest(tab);
    if (!request) return;
    var key = JSON.stringify(request);
    if (views[tab] && views[tab].key === key) return;
    var ticket = latest[tab] = (latest[tab] || 0) + 1;
    post(tab === "step" ? "/api/trace" : "/api/view", request).then(function (answer) {
      if (latest[tab] !== ticket) return;  // answered after a newer request: stale
      views[tab] = { key: key, answer: answer };
      show(tab, answer, request.diff);
    }, function (error) { status(error.message); });
  }

  function show(tab, answer, isDiff) {
    var text = answer.text || "";
    if (!text && answer.diagnostics.length) text = "(the program has errors; see the editor)";
    if (answer.truncated && tab !== "step") status("This view was too long: it shows its beginning only.");
    if (tab === "tokens") showTokens($("tokens"), text);
    if (tab === "tree") {
      if (answer.text) window.drawSyntaxTree($("tree"), answer.text); else $("tree").textContent = text;
    }
    if (tab === "ir") isDiff && answer.text ? showDiff($("ir"), answer.text) : showListing($("ir"), isDiff && !text ? "(optimisation changed nothing)" : text, answer.lines, "ir");
    if (tab === "asm") showListing($("asm"), text, answer.lines, $("asm-target").value);
    if (tab === "passes") window.showPasses(answer);
    if (tab === "cfg") window.showGraph(answer);
    if (tab === "step") window.showTrace(answer);
    window.SourceLinks.register($("pane-" + tab));
  }

  // The token listing, a line per token, each tagged with its source line ("LINE:COLUMN").
  function showTokens(into, text) {
    into.textContent = "";
    text.replace(/\n$/, "").split("\n").forEach(function (line) {
      var span = document.createElement("span");
      span.className = "line";
      span.textContent = line || " ";
      var at = /^(\d+):\d+/.exec(line);
      if (at) span.dataset.sourceLine = at[1];
      into.appendChild(span);
    });
  }

  // Each line of a listing, tagged with its source line and, on hover, what its instruction
  // does (`explanations`: "ir" or a target's name).
  function showListing(into, text, lines, explanations) {
    into.textContent = "";
    text.replace(/\n$/, "").split("\n").forEach(function (line, index) {
      var span = document.createElement("span");
      span.className = "line";
      span.textContent = line || " ";
      if (lines && lines[index]) span.dataset.sourceLine = lines[index];
      var explanation = window.explainInstruction(explanations, line);
      if (explanation) span.title = explanation;
      into.appendChild(span);
    });
  }

  // The IR at -O0 against the IR at the level chosen, as the server's unified diff (every
  // line kept): its three header lines dropped, each line marked by its first character.
  function showDiff(into, diff) {
    into.textContent = "";
    diff.replace(/\n$/, "").split("\n").slice(3).forEach(function (line) {
      var span = document.createElement("span");
      var mark = line.charAt(0);
      span.className = "line" + (mark === "+" ? " diff-add" : mark === "-" ? " diff-remove" : "");
      span.textContent = (mark === " " ? " " : mark) + " " + line.slice(1);
      into.appendChild(span);
    });
  }

  window.SourceLinks.attach(editor);
  // What the Step pane needs of the editor.
  window.playground = { editor: editor, position: position };

  // Tabs, usable with the arrow keys as the WAI-ARIA pattern describes.
  var tabs = Array.prototype.slice.call(document.querySelectorAll("[role=tab]"));
  function selectTab(name) {
    if (name !== "step") window.clearStepMark();
    activeTab = name;
    tabs.forEach(function (tab) {
      var selected = tab.id === "tab-" + name;
      tab.setAttribute("aria-selected", String(selected));
      tab.tabIndex = selected ? 0 : -1;
      $(tab.getAttribute("aria-controls")).hidden = !selected;
    });
    refresh(name);
  }
  tabs.forEach(function (tab, index) {
    tab.addEventListener("click", function () { selectTab(tab.id.slice(4)); });
    tab.addEventListener("keydown", function (event) {
      var step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
      if (!step) return;
      var next = tabs[(index + step + tabs.length) % tabs.length];
      next.focus();
      selectTab(next.id.slice(4));
    });
  });
  $("stdin").addEventListener("change", function () { if (activeTab === "step") refresh("step"); });
  ["ir-opt", "ir-diff", "asm-target", "asm-opt", "asm-directives", "asm-labels", "asm-comments", "passes-opt", "cfg-code", "cfg-opt", "cfg-function"].forEach(function (id) {
    $(id).addEventListener("change", function () { refresh(activeTab); });
  });
  var pending = null;
  editor.on("changes", function () {
    clearTimeout(pending);
    pending = setTimeout(function () { refresh(activeTab); }, 500);
  });

  $("run").addEventListener("click", run);
  $("share").addEventListener("click", share);

  // The examples menu.
  var examples = [];
  fetch("/api/examples").then(function (response) { return response.json(); }).then(function (list) {
    examples = list;
    list.forEach(function (example, index) {
      var option = document.createElement("option");
      option.value = String(index);
      option.textContent = example.name;
      $("examples").appendChild(option);
    });
  });
  $("examples").addEventListener("change", function () {
    var example = examples[Number(this.value)];
    if (example) { editor.setValue(example.source); history.pushState(null, "", "/"); }
  });

  // A shared link (/s/ID) opens with its program.
  var shared = /^\/s\/([0-9A-Za-z]+)$/.exec(location.pathname);
  if (shared) {
    fetch("/api/share/" + shared[1]).then(function (response) {
      return response.json().then(function (json) {
        if (!response.ok) throw new Error(json.error || "no such snippet");
        editor.setValue(json.source);
        status("Opened snippet " + shared[1]);
      });
    }).catch(function (error) { editor.setValue(DEFAULT_SOURCE); status(error.message); });
  } else {
    editor.setValue(DEFAULT_SOURCE);
  }
})();
