# frozen_string_literal: true

# Pantograph's V1 worker: renders a PDK templates V1 repository (moduleroot/, moduleroot_init/,
# config_defaults.yml, ERB) the way PDK's V1 renderer does, for one Pantograph run.
#
# One process per run, JSON lines on stdin/stdout, one request at a time:
#   {"id":1,"op":"load","root":DIR,"syncText":TEXT|null,"metadataText":TEXT|null,"uri":URL}
#   or, for a modulesync configuration (modulesync.rb),
#   {"id":1,"op":"load","kind":"modulesync","root":DIR,"syncText":TEXT|null,"moduleDir":DIR,"moduleName":NAME}
#     -> {"id":1,"ok":true,"files":[{"path","source","init","status","executable"}],"warnings":[...]}
#   {"id":2,"op":"render","path":DEST}
#     -> {"id":2,"ok":true,"content":BASE64}  or  {"id":2,"ok":false,"error":{"class","message","file","line"}}
# Anything the templates print goes to stderr, never into the protocol.
#
# The settings are merged here, in Ruby, not in TypeScript: what a template prints is a Ruby value's
# `to_s` (1.0 vs 1, symbols, YAML 1.1 booleans, key order), so only Ruby's YAML and PDK's own merge give
# PDK's bytes. The code follows PDK's lib/pdk/template/renderer/v1 (LegacyTemplateDir#config_for,
# TemplateFile, Renderer#render_module) and PDK::Util::Filesystem.write_file.

require 'json'
require 'yaml'
require 'erb'
require 'ostruct' # PDK's TemplateFile is an OpenStruct; templates may rely on it
require_relative 'modulesync'

Encoding.default_external = Encoding::UTF_8
Encoding.default_internal = nil

# The protocol owns the real stdin and stdout: a template (or a program it runs) that prints writes to
# stderr, and one that reads gets nothing, whether it uses $stdout, STDOUT or the file descriptors.
PROTOCOL_OUT = $stdout.dup
PROTOCOL_OUT.sync = true
PROTOCOL_IN = $stdin.dup
$stdout.reopen($stderr)
$stdin.reopen(File::NULL)

# PDK depends on the deep_merge gem and templates require it (pdk-templates' .rubocop.yml.erb does):
# the gem when installed, else Pantograph's stand-in, found on the load path under the same name.
begin
  require 'deep_merge'
rescue LoadError
  $LOAD_PATH.push(__dir__)
  require 'deep_merge'
end

# Limits from the command line: bytes of one rendered file, bytes of address space.
MAX_OUTPUT = Integer(ARGV[0] || 64 * 1024 * 1024)
MAX_MEMORY = Integer(ARGV[1] || 0)
ARGV.clear # so that a template's `gets` does not take them for files
if MAX_MEMORY.positive? && Process.const_defined?(:RLIMIT_AS)
  begin
    Process.setrlimit(Process::RLIMIT_AS, MAX_MEMORY)
  rescue StandardError
    nil # not supported here: the time limit still holds
  end
end

module PantographV1
  # PDK's metadata defaults, for the keys a module's metadata.json lacks (PDK::Module::Metadata::DEFAULTS,
  # which `pdk convert` and `pdk update` fill in before rendering).
  METADATA_DEFAULTS = {
    'name' => nil,
    'version' => '0.1.0',
    'author' => nil,
    'summary' => '',
    'license' => 'Apache-2.0',
    'source' => '',
    'project_page' => nil,
    'issues_url' => nil,
    'dependencies' => [],
    'data_provider' => nil,
    'operatingsystem_support' => ['RedHat based Linux', 'Debian based Linux', 'Windows'],
    'requirements' => [{ 'name' => 'puppet', 'version_requirement' => '>= 7.24 < 9.0.0' }]
  }.freeze

  # A stand-in for PDK::Util::TemplateURI as far as a template can see it through `template_dir.uri`.
  class TemplateURI
    def initialize(text)
      @text = text.to_s
    end

    def to_s
      @text
    end
    alias to_str to_s
    alias metadata_format to_s

    def bare_uri
      @text.split('#', 2).first
    end

    def uri_fragment
      @text.split('#', 2)[1]
    end

    def default?
      false
    end

    def puppetlabs_template?
      bare_uri.sub(/\.git\z/, '') == 'https://github.com/puppetlabs/pdk-templates'
    end
  end

  # PDK's LegacyTemplateDir: what templates reach through `template_dir` and `config_for`.
  class LegacyTemplateDir
    attr_accessor :module_metadata
    attr_reader :uri, :warnings

    def initialize(uri, path, module_metadata, sync_text)
      @uri = uri
      @path = path
      @module_metadata = module_metadata
      @sync_text = sync_text
      @warnings = []
    end

    def metadata; end
    def render; end
    def object_template_for; end
    def template_path(_uri); end

    def object_config
      config_for(nil)
    end

    # .sync.yml read once, before any file: what Ruby's YAML refuses in it (a symbol, an alias to no anchor,
    # an alias inside its own anchor) is one SyncError at its place, where PDK stops on it; a YAML syntax
    # error is a warning and {} (PDK's read_config rescues only that).
    def load_sync!
      return if @sync_text.nil? || @sync_loaded

      @sync_config = parse_config(@sync_text, '.sync.yml')
      found = @sync_text.include?('*') ? SyncProblem.recursive_aliases(@sync_text) : []
      raise SyncError.new('SystemStackError', 'stack level too deep', found) unless found.empty?

      @sync_loaded = true
    rescue Psych::DisallowedClass, Psych::BadAlias => e
      raise SyncError.new(e.class.name, e.message, SyncProblem.locate(@sync_text, e))
    end

    # PDK's config_for: config_defaults.yml deep-merged (knockout prefix '---') with .sync.yml once; then
    # for a file: `common`, `module_metadata`, the file's own key (a shallow merge), then every top-level
    # key of the merged configuration (PDK merges the whole of it in too).
    def config_for(dest_path, _sync_config_path = nil)
      if @config.nil?
        conf_defaults = read_config(File.join(@path, 'config_defaults.yml'), 'config_defaults.yml')
        load_sync!
        @config = conf_defaults
        @config.deep_merge!(@sync_config, knockout_prefix: '---') unless @sync_config.nil?
      end
      file_config = @config.fetch('common', {}).clone
      file_config['module_metadata'] = @module_metadata
      file_config.merge!(@config.fetch(dest_path, {})) unless dest_path.nil?
      file_config.merge!(@config)
    end

    private

    def read_config(file, label)
      return {} unless File.file?(file) && File.readable?(file)

      parse_config(File.read(file), label)
    end

    # As PDK: invalid YAML is a warning and counts as {}.
    def parse_config(text, label)
      YAML.safe_load(text, permitted_classes: [], permitted_symbols: [], aliases: true)
    rescue Psych::SyntaxError => e
      @warnings << { 'file' => label, 'line' => e.line, 'column' => e.column,
                     'message' => "#{label} is not valid YAML: #{e.problem} #{e.context}".strip }
      {}
    end
  end

  # .sync.yml cannot be loaded (Ruby's YAML refuses it, as PDK's would): Ruby's error, and every node that
  # makes it (Ruby stops at the first; the user fixes them all at once).
  class SyncError < StandardError
    attr_reader :ruby_class, :nodes

    # `file`: .sync.yml, or a YAML file of a modulesync configuration (config_defaults.yml, ...).
    def initialize(ruby_class, message, nodes, file = '.sync.yml')
      super(message)
      @ruby_class = ruby_class
      @nodes = nodes
      @file = file
    end

    def to_h
      { 'class' => @ruby_class, 'message' => message, 'file' => @file, 'nodes' => @nodes }
    end
  end

  # Finds, in the parse tree of YAML that Psych parses but safe_load refuses, the nodes to blame: each with
  # its line and column (1-based), what it is (`kind`: symbol, class, unknown_alias, recursive_alias), its
  # text, and the exception Ruby raises for it (`class`, `message`: Ruby's own error names only the first).
  module SyncProblem
    SAFE = [String, Integer, Float, TrueClass, FalseClass, NilClass].freeze

    # `symbols`: Symbols load (modulesync's YAML.load_file; PDK's safe_load refuses them).
    def self.locate(text, error, symbols: false)
      found = []
      walk(text) { |node, ancestors, anchors| found << blame(node, ancestors, anchors, error, symbols) }
      found.compact
    end

    def self.recursive_aliases(text)
      found = []
      walk(text) do |node, ancestors, anchors|
        found << at(node, 'recursive_alias', node.anchor) if node.is_a?(Psych::Nodes::Alias) && ancestors.include?(anchors[node.anchor])
      end
      found
    end

    def self.blame(node, ancestors, anchors, error, symbols)
      if node.is_a?(Psych::Nodes::Alias)
        return at(node, 'unknown_alias', node.anchor) unless anchors.key?(node.anchor)

        return ancestors.include?(anchors[node.anchor]) ? at(node, 'recursive_alias', node.anchor) : nil
      end
      return nil unless error.is_a?(Psych::DisallowedClass)
      return at(node, 'class', node.tag) if node.respond_to?(:tag) && node.tag.to_s.match?(%r{\A(!ruby/|tag:ruby\.yaml\.org,)})
      return nil unless node.is_a?(Psych::Nodes::Scalar) && !node.quoted && node.tag.nil?

      value = scanner.tokenize(node.value)
      return nil if SAFE.any? { |klass| value.is_a?(klass) } || (symbols && value.is_a?(Symbol))

      at(node, value.is_a?(Symbol) ? 'symbol' : 'class', node.value, symbols)
    end

    # Depth first, in document order; anchors as they are set (before the node's children, as Psych sets
    # them).
    def self.walk(text, &block)
      root = Psych.parse(text)
      visit(root, [], {}, &block) if root
    rescue Psych::SyntaxError
      nil
    end

    def self.visit(node, ancestors, anchors, &block)
      anchors[node.anchor] = node if node.respond_to?(:anchor) && node.anchor && !node.is_a?(Psych::Nodes::Alias)
      yield(node, ancestors, anchors)
      (node.children || []).each { |child| visit(child, ancestors + [node], anchors, &block) }
    end

    def self.at(node, kind, text, symbols = false)
      ruby_class, message = own_error(node, kind, symbols)
      { 'line' => node.start_line + 1, 'column' => node.start_column + 1, 'kind' => kind, 'text' => text.to_s,
        'class' => ruby_class, 'message' => message }
    end

    # What safe_load raises for this node when it meets it first: the node loaded alone, as safe_load loads
    # it (no classes, no symbols, no anchors set). An alias inside its own anchor loads; merging it recurses.
    def self.own_error(node, kind, symbols = false)
      return ['SystemStackError', 'stack level too deep'] if kind == 'recursive_alias'

      loader = Psych::ClassLoader::Restricted.new(symbols ? ['Symbol'] : [], [])
      Psych::Visitors::ToRuby.new(Psych::ScalarScanner.new(loader), loader).accept(node)
      [nil, nil]
    rescue Psych::DisallowedClass, Psych::BadAlias => e
      [e.class.name, e.message]
    end

    def self.scanner
      @scanner ||= Psych::ScalarScanner.new(Psych::ClassLoader.new)
    end
  end

  # PDK's TemplateFile: an OpenStruct of the data (`configs`, `template_dir`), with `@configs` and
  # `@template_file` set, rendered with ERB's trim mode '-'. `@metadata` is Pantograph's addition, the
  # module's metadata as modulesync templates know it (PDK leaves it nil).
  class TemplateFile < OpenStruct
    def initialize(template_file, data = {})
      @template_file = template_file
      @configs = data[:configs] if data.key?(:configs)
      @metadata = data[:template_dir]&.module_metadata
      super(data)
    end

    def render
      File.extname(@template_file) == '.erb' ? render_erb : File.read(@template_file)
    end

    def config_for(path)
      return unless respond_to?(:template_dir)

      template_dir.config_for(path)
    end

    private

    def render_erb
      renderer = ERB.new(File.read(@template_file), trim_mode: '-')
      renderer.filename = @template_file
      renderer.result(binding)
    end
  end

  # The worker's state for one template repository.
  class Session
    def initialize(request)
      @root = File.expand_path(request.fetch('root'))
      metadata = parse_metadata(request['metadataText'])
      @template_dir = LegacyTemplateDir.new(TemplateURI.new(request['uri']), @root, metadata, request['syncText'])
      @files = {}
    end

    # Every file of moduleroot/ and moduleroot_init/ (an init file of the same path wins, as in PDK), with
    # what PDK would do with it.
    def plan
      @template_dir.load_sync!
      files_in_template(%w[moduleroot moduleroot_init]).map do |relative, dir|
        dest = relative.sub(/\.erb\Z/, '')
        entry = { 'path' => dest, 'source' => "#{dir}/#{relative}", 'init' => dir == 'moduleroot_init' }
        begin
          config = @template_dir.config_for(dest)
          entry['status'] = if config['unmanaged'] then 'unmanage'
                            elsif config['delete'] then 'delete'
                            elsif entry['init'] then 'init'
                            else 'manage'
                            end
          entry['executable'] = config['manage_execute_permissions'] && File.stat(File.join(@root, dir, relative)).executable? ? true : false
          @files[dest] = [File.join(@root, dir, relative), config]
        rescue StandardError, ScriptError, SystemStackError => e
          entry['status'] = 'error'
          entry['error'] = PantographV1.describe(e, nil)
        end
        entry
      end
    end

    def warnings
      @template_dir.warnings
    end

    # The template file a destination path renders from.
    def source_of(dest)
      @files.dig(dest, 0)
    end

    def render(dest)
      file, config = @files.fetch(dest) { raise ArgumentError, "no template file for #{dest}" }
      content = TemplateFile.new(file, configs: config, template_dir: @template_dir).render
      # What PDK writes: universal newlines, and always a final newline.
      content = content.encode(universal_newline: true)
      content += "\n" unless content[-1] == "\n"
      content
    end

    private

    # As PDK's Renderer#files_in_template: regular files (not symlinks), dot files included.
    def files_in_template(dirs)
      found = {}
      dirs.each do |dir|
        base = File.join(@root, dir)
        Dir.glob(File.join(base, '**', '*'), File::FNM_DOTMATCH).sort.each do |path|
          next unless File.file?(path) && !File.symlink?(path)

          found[path.delete_prefix("#{base}/")] = dir
        end
      end
      found
    end

    def parse_metadata(text)
      return {} if text.nil?

      data = JSON.parse(text)
      return {} unless data.is_a?(Hash)

      merged = METADATA_DEFAULTS.merge(data) { |_key, default, value| value.nil? ? default : value }
      merged['requirements'] = METADATA_DEFAULTS['requirements'] if merged['requirements'].is_a?(Array) && merged['requirements'].empty?
      merged
    rescue JSON::ParserError
      {}
    end
  end

  # The template file and line of an error: ERB names the template as the file of its code.
  def self.describe(error, file)
    where = [error.message.to_s, *(error.backtrace || [])]
    line = nil
    at = nil
    where.each do |text|
      match = text.match(/\A(.+?):(\d+)(?::|\z)/)
      next unless match && (file.nil? || match[1] == file)

      at = match[1]
      line = Integer(match[2])
      break
    end
    message = error.message.to_s
    # A syntax error quotes the Ruby ERB compiled the template to, which the template's author never wrote.
    message = message.lines.first.to_s if error.is_a?(SyntaxError)
    message = message.sub(/\A#{Regexp.escape(at)}:#{line}:\s*/, '') if at && line
    { 'class' => error.class.name, 'message' => message.lines.first(6).join.strip, 'file' => at, 'line' => line }
  end

  def self.respond(reply)
    PROTOCOL_OUT.write("#{JSON.generate(reply)}\n")
  end

  def self.run
    session = nil
    PROTOCOL_IN.each_line do |line|
      request = JSON.parse(line)
      id = request['id']
      begin
        case request['op']
        when 'load'
          session = request['kind'] == 'modulesync' ? ModulesyncSession.new(request) : Session.new(request)
          begin
            files = session.plan
          rescue SyncError, ConfigFileError => e
            respond({ 'id' => id, 'ok' => false, 'error' => e.to_h })
            next
          end
          respond({ 'id' => id, 'ok' => true, 'files' => files, 'warnings' => session.warnings })
        when 'render'
          raise ArgumentError, 'render before load' if session.nil?

          dest = request.fetch('path')
          source = session.source_of(dest)
          begin
            content = session.render(dest)
          rescue StandardError, ScriptError, SystemStackError, NoMemoryError, SystemExit => e
            respond({ 'id' => id, 'ok' => false, 'error' => describe(e, source) })
            next
          end
          if content.bytesize > MAX_OUTPUT
            respond({ 'id' => id, 'ok' => false,
                      'error' => { 'class' => 'OutputLimit', 'file' => source, 'line' => nil,
                                   'message' => "rendered #{content.bytesize} bytes, more than the limit of #{MAX_OUTPUT}" } })
            next
          end
          respond({ 'id' => id, 'ok' => true, 'content' => [content.b].pack('m0') })
        when 'object'
          # `pantograph new`: one object template (object_templates/*.erb) rendered with the values PDK's
          # generators give it, as PDK's TemplateFile renders it. Needs no `load`.
          file = request.fetch('file')
          data = request.fetch('data').transform_keys(&:to_sym)
          begin
            content = TemplateFile.new(file, data).render
          rescue StandardError, ScriptError, SystemStackError, NoMemoryError, SystemExit => e
            respond({ 'id' => id, 'ok' => false, 'error' => describe(e, file) })
            next
          end
          respond({ 'id' => id, 'ok' => true, 'content' => [content.b].pack('m0') })
        when 'exit'
          break
        else
          raise ArgumentError, "unknown op #{request['op'].inspect}"
        end
      rescue StandardError, ScriptError => e
        respond({ 'id' => id, 'ok' => false, 'error' => describe(e, nil) })
      end
    end
  end
end

PantographV1.run if $PROGRAM_NAME == __FILE__
