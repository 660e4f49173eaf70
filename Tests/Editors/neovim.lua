-- Neovim (0.7, Debian's) drives `kaleidoscope lsp` with its built-in client, as a user's
-- editor would: open a file, wait for the diagnostics, hover, jump to a definition, rename,
-- format, and check each. Run by Tests/EndToEndTests/EditorTests.swift:
--   KALEIDOSCOPE=path/to/kaleidoscope nvim --headless -u NONE -c 'luafile neovim.lua' FILE
-- Prints "ok: ..." for each step; any failure exits with status 1 and says why.

local tool = os.getenv('KALEIDOSCOPE')
local function fail(message)
  io.stderr:write('FAIL: ' .. message .. '\n')
  vim.cmd('cquit 1')
end
local function ok(message) io.stdout:write('ok: ' .. message .. '\n') end
local function check(condition, message, detail)
  if not condition then fail(message .. (detail and (': ' .. vim.inspect(detail)) or '')) end
  ok(message)
end

local buffer = vim.api.nvim_get_current_buf()
vim.bo[buffer].filetype = 'kaleidoscope'
local client = vim.lsp.start_client({
  name = 'kaleidoscope',
  cmd = { tool, 'lsp' },
  root_dir = vim.fn.getcwd(),
  on_error = function(code, err) fail('client error ' .. tostring(code) .. ' ' .. vim.inspect(err)) end,
})
check(client ~= nil, 'the server starts')
vim.lsp.buf_attach_client(buffer, client)
check(vim.wait(10000, function() return vim.lsp.buf_is_attached(buffer, client) and vim.lsp.get_client_by_id(client).initialized end, 20),
  'the client initializes and attaches')

-- The file calls `fob`, a typo for `fib`: one error, with the "did you mean" note.
check(vim.wait(10000, function() return #vim.diagnostic.get(buffer) > 0 end, 20), 'diagnostics arrive')
local diagnostics = vim.diagnostic.get(buffer)
check(#diagnostics == 1 and diagnostics[1].message == "unknown function 'fob'" and diagnostics[1].lnum == 4
  and diagnostics[1].col == 0 and diagnostics[1].severity == vim.diagnostic.severity.ERROR,
  'the diagnostic is check\'s', diagnostics)

local function request(method, params)
  local responses = vim.lsp.buf_request_sync(buffer, method, params, 10000)
  local response = responses and responses[client]
  if not response then fail(method .. ' got no answer') end
  if response.err then fail(method .. ' failed: ' .. vim.inspect(response.err)) end
  return response.result
end
local function at(line, character)
  return { textDocument = vim.lsp.util.make_text_document_params(buffer), position = { line = line, character = character } }
end

-- Hover over the call of fib on line 4 (0-based): its signature and its comment.
local hover = request('textDocument/hover', at(3, 1))
check(hover and hover.contents.value:find('def fib%(n%)') and hover.contents.value:find('The Fibonacci numbers'),
  'hover shows the signature and the comment', hover)

-- Go to the definition: the cursor moves to the prototype's name.
vim.api.nvim_win_set_cursor(0, { 4, 1 })
vim.lsp.buf.definition()
check(vim.wait(10000, function() local c = vim.api.nvim_win_get_cursor(0) return c[1] == 2 and c[2] == 4 end, 20),
  'definition jumps to fib', vim.api.nvim_win_get_cursor(0))

-- Fix the typo through the quick fix's edit, then rename fib to fibonacci.
local actions = request('textDocument/codeAction', {
  textDocument = vim.lsp.util.make_text_document_params(buffer),
  range = { start = { line = 4, character = 0 }, ['end'] = { line = 4, character = 3 } },
  context = { diagnostics = {} },
})
check(actions and #actions == 1 and actions[1].title == "Change 'fob' to 'fib'", 'the quick fix is offered', actions)
vim.lsp.util.apply_workspace_edit(actions[1].edit, 'utf-16')
check(vim.wait(10000, function() return #vim.diagnostic.get(buffer) == 0 end, 20), 'the quick fix clears the diagnostic')

vim.api.nvim_win_set_cursor(0, { 2, 5 })
vim.lsp.buf.rename('fibonacci')
check(vim.wait(10000, function()
  return table.concat(vim.api.nvim_buf_get_lines(buffer, 0, -1, false), '\n'):find('fibonacci%(10%)') ~= nil
end, 20), 'rename changes every use')
local text = table.concat(vim.api.nvim_buf_get_lines(buffer, 0, -1, false), '\n')
local _, count = text:gsub('fibonacci', '')
check(count == 7 and not text:find('fib%('), 'rename changes the definition and the six calls', text)

-- Format: the layout of `fmt`.
vim.lsp.buf.formatting_sync(nil, 10000)
local formatted = vim.api.nvim_buf_get_lines(buffer, 0, -1, false)
check(formatted[2] == 'def fibonacci(n) if n < 3 then 1 else fibonacci(n - 1) + fibonacci(n - 2)'
  and formatted[4] == 'fibonacci(2) + fibonacci(3)', 'formatting gives fmt\'s layout', formatted)

vim.lsp.stop_client(client)
vim.wait(5000, function() return vim.lsp.get_client_by_id(client) == nil end, 20)
ok('done')
vim.cmd('qall!')
