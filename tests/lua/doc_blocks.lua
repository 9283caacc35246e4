-- doc_blocks.lua - the ```lua blocks of README.md and docs/*.md, and what each is (the rules are in
-- doc_examples_spec.lua's header): shared by the specs that run them and lint them.
local B = {}

--- The Markdown files whose blocks are examples: README.md, then docs/*.md in name order.
function B.files()
  local files = {"README.md"}
  local ls = io.popen("ls docs/*.md")
  for path in ls:lines() do files[#files + 1] = path end
  ls:close()
  return files
end

--- Every ```lua block of the file: {file =, line = (of the opening fence), marker =, source =}.
function B.blocks(path)
  local blocks, block, n = {}, nil, 0
  for text in io.lines(path) do
    n = n + 1
    if block then
      if text:match("^%s*```%s*$") then
        block.source = table.concat(block.lines, "\n") .. "\n"
        blocks[#blocks + 1] = block
        block = nil
      else
        block.lines[#block.lines + 1] = text:sub(#block.indent + 1)
      end
    else
      local indent, info = text:match("^(%s*)```lua(.*)$")
      if indent then
        block = {file = path, line = n, indent = indent, marker = info:match("^%s*(.-)%s*$"), lines = {}}
      end
    end
  end
  assert(not block, path .. ":" .. (block and block.line or 0) .. ": a ```lua block is never closed")
  return blocks
end

--- Every block of every file, in order.
function B.all()
  local all = {}
  for _, path in ipairs(B.files()) do
    for _, block in ipairs(B.blocks(path)) do all[#all + 1] = block end
  end
  return all
end

--- Whether the source reads as a scene: a global function, or `world =` or `keys =`, at the start
--- of a line.
function B.is_scene(source)
  for line in (source):gmatch("[^\n]*") do
    if line:match("^function [%a_][%w_]*%s*%(") or line:match("^world%s*=") or line:match("^keys%s*=") then
      return true
    end
  end
  return false
end

--- Whether the source requires the module.
function B.is_script(source)
  return source:match("require%s*%(?%s*[\"']steer[\"']") ~= nil
end

--- "fragment", "scene", "script", or nil for a block that is none of them.
function B.kind(block)
  if block.marker == "fragment" then return "fragment" end
  if B.is_scene(block.source) then return "scene" end
  if B.is_script(block.source) then return "script" end
  return nil
end

--- The block's source with blank lines before it, so that its lines keep their numbers.
function B.padded(block) return ("\n"):rep(block.line) .. block.source end

--- "file:line" of the block's opening fence.
function B.where(block) return ("%s:%d"):format(block.file, block.line) end

return B
