// The panes that show how the compiler works (SPEC §7): the optimiser pass by pass, and
// control-flow graphs. app.js asks the server and hands each answer here.
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };

  // Keeps a function selector's options in step with the program's functions.
  function fillFunctions(select, functions) {
    var chosen = select.value;
    while (select.options.length > 1) select.remove(1);
    functions.forEach(function (name) {
      var option = document.createElement("option");
      option.value = option.textContent = name;
      select.appendChild(option);
    });
    select.value = functions.indexOf(chosen) >= 0 ? chosen : "";
  }

  // The Passes pane: the list of pass runs (those that changed nothing only on request),
  // for the function chosen, and the IR before and after the run selected.
  var passes = null;
  function showPasses(answer) {
    passes = answer;
    fillFunctions($("passes-function"), answer.functions || []);
    renderPasses();
  }

  function renderPasses() {
    var list = $("passes-list"), showAll = $("passes-unchanged").checked, only = $("passes-function").value;
    list.textContent = "";
    $("pass-before").textContent = $("pass-after").textContent = "";
    if (!passes || !passes.passes) {
      $("passes-summary").textContent = passes && passes.diagnostics.length ? "(the program has errors; see the editor)" : "";
      return;
    }
    var runs = passes.passes.filter(function (run) { return !only || run.function === only; });
    var changed = runs.filter(function (run) { return run.changed; }).length;
    $("passes-summary").textContent = runs.length + " passes ran, " + changed + " changed the IR" +
      (passes.truncated ? "; the IR of the last ones was left out (too large)" : "") + ".";
    var first = null;
    runs.forEach(function (run) {
      if (!run.changed && !showAll) return;
      var item = document.createElement("li"), button = document.createElement("button");
      item.className = run.changed ? "changed" : "unchanged";
      button.textContent = run.pass + " on " + run.function;
      button.setAttribute("aria-pressed", "false");
      button.addEventListener("click", function () { selectPass(button, run); });
      item.appendChild(button);
      list.appendChild(item);
      if (run.changed && !first) first = function () { selectPass(button, run); };
    });
    if (first) first();
  }

  function selectPass(button, run) {
    document.querySelectorAll("#passes-list button").forEach(function (other) {
      other.setAttribute("aria-pressed", String(other === button));
    });
    $("pass-before").textContent = run.changed ? run.before || "(the pass made this function)" : "(no change)";
    $("pass-after").textContent = run.changed ? run.after || "(the pass deleted this function)" : "(no change)";
  }
  ["passes-unchanged", "passes-function"].forEach(function (id) { $(id).addEventListener("change", renderPasses); });

  // The CFG pane: the server's SVG as an image (which runs nothing), of every function or of
  // the one chosen (app.js asks for it), and a link to save it.
  var graph = null;
  function showGraph(answer) {
    graph = answer;
    fillFunctions($("cfg-function"), answer.functions || []);
    renderGraph();
  }

  function renderGraph() {
    var into = $("cfg"), link = $("cfg-export");
    into.textContent = "";
    if (!graph || !graph.svg) {
      into.textContent = graph && graph.diagnostics.length ? "(the program has errors; see the editor)" : (graph && graph.text) || "";
      link.removeAttribute("href");
      return;
    }
    var only = $("cfg-function").value;
    var url = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(graph.svg);
    var image = document.createElement("img");
    image.alt = "Control-flow graph" + (only ? " of " + only : "");
    image.src = url;
    into.appendChild(image);
    link.href = url;
  }

  // One line on what an instruction does, after the LLVM LangRef and the architectures'
  // manuals, in our own words (explanations.json, which a test keeps complete for the
  // examples): for an IR line, its opcode; for an assembly line, its mnemonic.
  var explanations = {};
  fetch("/static/explanations.json").then(function (response) { return response.json(); })
    .then(function (table) {
      explanations = table;
      // Listings shown before the table came get their explanations now.
      [["#ir .line", "ir"], ["#asm .line", $("asm-target").value]].forEach(function (pair) {
        document.querySelectorAll(pair[0]).forEach(function (span) {
          var explanation = explainInstruction(pair[1], span.textContent);
          if (explanation) span.title = explanation;
        });
      });
    });

  function explainInstruction(kind, line) {
    var table = explanations[kind];
    if (!table) return "";
    var text = line.replace(/^\s+/, "");
    if (kind === "ir") {
      if (!/^ /.test(line)) return "";
      text = text.replace(/^%\S+ = /, "");
    } else if (!/^\t/.test(line) || text.charAt(0) === ".") {
      return "";
    }
    var word = text.split(/\s/)[0];
    return table[word] ? word + ": " + table[word] : "";
  }

  // Keywords, built-in operators and tree nodes: what they mean and the tutorial chapter
  // that introduces each, from the front end's documentation (GET /api/language).
  var language = { keywords: {}, operators: {}, nodes: {} };
  fetch("/api/language").then(function (response) { return response.json(); })
    .then(function (guide) { language = guide; });

  // Shows `entry` under the editor: its summary and a link to its chapter.
  function showLanguage(word, entry) {
    var into = $("explanation");
    into.textContent = "";
    if (!entry) return;
    into.appendChild(document.createTextNode(entry.summary.replace(/`/g, "") + " "));
    var link = document.createElement("a");
    link.href = entry.url;
    link.target = "_blank";
    link.rel = "noopener";
    link.textContent = "Tutorial chapter " + entry.chapter + ": " + entry.title;
    into.appendChild(link);
  }

  document.getElementById("source-pane").addEventListener("mouseover", function (event) {
    var token = event.target;
    if (!token.classList) return;
    if (token.classList.contains("cm-keyword")) showLanguage(token.textContent, language.keywords[token.textContent]);
    if (token.classList.contains("cm-operator")) showLanguage(token.textContent, language.operators[token.textContent]);
  });

  // A tree node's documentation, by the kind its label starts with ("body: For" is a For).
  window.nodeDocumentation = function (label) {
    var kind = label.replace(/^[a-z]+: /, "").split(" ")[0];
    return language.nodes[kind];
  };

  window.explainInstruction = explainInstruction;
  window.showPasses = showPasses;
  window.showGraph = showGraph;
})();
