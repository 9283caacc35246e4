-- tests/rock/rock_suite.sh starts LÖVE on this folder from a shell with only `luarocks path` for
-- the LuaJIT tree: `love tests/rock/love WALK TREE` runs walk.lua (WALK) against TREE as a game
-- would, through LÖVE's own require, and quits with 0 when it passed.
function love.load(args)
  local walk, tree = args[1], args[2]
  local ok, err = pcall(function() assert(loadfile(walk))(tree) end)
  if not ok then print(err) end
  love.event.quit(ok and 0 or 1)
end
